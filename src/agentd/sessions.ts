import type { WebSocket } from 'ws';
import { secretsDeliveryFor, type SecretsDelivery } from '../secrets/index.js';
import { encodeFrame, MESSAGE } from './frames.js';
import { encodeProtobuf, type AgentMessageType } from './proto/codec.js';
import type { CheckRequest, Entity, EntityConfig } from '../v2/index.js';

/** Who connected, as the handshake established it. */
export interface AgentIdentity {
  readonly name: string;
  readonly namespace: string;
  readonly user: string;
  readonly subscriptions: readonly string[];
  /** The connection is TLS (wss). */
  readonly tls: boolean;
  /** The agent presented a certificate the listener verified (mutual TLS): what decides whether secrets may go to it. */
  readonly mtls: boolean;
}

// What each frame the backend sends carries, as a corev2 protobuf type.
const SENT_TYPE: Readonly<Record<string, AgentMessageType>> = { [MESSAGE.checkRequest]: 'CheckRequest', [MESSAGE.entityConfig]: 'EntityConfig' };

/** A value as a sender hands it over: read only, its lists too (sending it changes nothing of it). */
type Sent<T> = T extends readonly (infer U)[] ? readonly Sent<U>[] : T extends object ? { readonly [K in keyof T]: Sent<T[K]> } : T;

/** What each frame the backend sends carries: Sensu Go's corev2 type of it; a frame of another type, any object. */
interface SentFrames {
  [MESSAGE.entityConfig]: EntityConfig;
  [MESSAGE.checkRequest]: Sent<CheckRequest>;
}
type SentPayload<T extends string> = T extends keyof SentFrames ? SentFrames[T] : object;

/** The payload formats of Sensu Go's agent transport: the agent asks for protobuf and falls back to JSON. */
export const FORMAT = { protobuf: 'application/octet-stream', json: 'application/json' } as const;

/** One connected agent: its identity and the socket frames go down. */
export class AgentSession {
  readonly connectedAt = Date.now();
  lastKeepaliveMs: number | null = null;
  /** The agent's last keepalive while it waits for its transaction: its later events wait for it too. */
  keepaliveWriting: Promise<void> | null = null;
  /** The entity as last stored (keepalive, API change): what its events carry, without a read per event. */
  entity: Entity | null = null;
  /** Closed for sending malformed frames: what it still sends is dropped unread. */
  discarding = false;
  /** Subscriptions the agent's stored entity holds (the header's until its first keepalive). */
  subscriptions: Set<string>;

  constructor(
    readonly identity: AgentIdentity,
    private readonly socket: WebSocket,
    /** The payloads both ways are protobuf (the agent asked for it), not JSON. */
    readonly protobuf = false,
  ) {
    this.subscriptions = new Set([...identity.subscriptions, `entity:${identity.name}`]);
  }

  /** Whether check requests to this agent may carry their resolved secrets: only over mutual TLS. */
  secretsDelivery(): SecretsDelivery {
    return secretsDeliveryFor({ local: false, tls: this.identity.tls, verifiedClientCertificate: this.identity.mtls });
  }

  get key(): string {
    return sessionKey(this.identity.namespace, this.identity.name);
  }

  /** Sends one frame (a JSON object, as protobuf for a protobuf session): false when the socket is no longer open. */
  send<T extends string>(type: T, payload: SentPayload<T>): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    const protobufType = this.protobuf ? SENT_TYPE[type] : undefined;
    const body = protobufType ? encodeProtobuf(protobufType, payload) : JSON.stringify(payload);
    this.socket.send(encodeFrame(type, typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.length)), { binary: true });
    return true;
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

const sessionKey = (namespace: string, name: string) => `${namespace}\u0000${name}`;

/** The connected agents by namespace and entity, and by subscription: where check requests will be sent. */
export class SessionRegistry {
  private readonly byKey = new Map<string, AgentSession>();

  /** Registers a session; an older one of the same agent is returned to be closed (the agent reconnected). */
  add(session: AgentSession): AgentSession | null {
    const previous = this.byKey.get(session.key) ?? null;
    this.byKey.set(session.key, session);
    return previous;
  }

  remove(session: AgentSession): void {
    if (this.byKey.get(session.key) === session) this.byKey.delete(session.key);
  }

  get(namespace: string, name: string): AgentSession | null {
    return this.byKey.get(sessionKey(namespace, name)) ?? null;
  }

  /** The sessions of `namespace` whose entity holds `subscription` (`entity:<name>` included). */
  withSubscription(namespace: string, subscription: string): AgentSession[] {
    return [...this.byKey.values()].filter((s) => s.identity.namespace === namespace && s.subscriptions.has(subscription));
  }

  count(): number {
    return this.byKey.size;
  }

  all(): AgentSession[] {
    return [...this.byKey.values()];
  }
}
