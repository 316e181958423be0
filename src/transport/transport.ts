/** Moves check requests from the server role to client roles; a networked one (Redis) implements the same. */
export type CheckRequest = Record<string, unknown> & { readonly name: string; readonly issued?: number };

export interface Transport {
  /** Fanout to every subscriber, or to exactly one for `roundrobin:` and `direct:` subscriptions. */
  publish(subscription: string, request: CheckRequest): void;
  /** `consumer` names the subscriber: a round-robin subscription delivers to one consumer at a time. */
  subscribe(subscription: string, consumer: string, handler: (request: CheckRequest, subscription: string) => void): () => void;
  close(): Promise<void>;
}

/** Legacy routing: `_, type = sub.split(":", 2).reverse`; direct and roundrobin go to one consumer. */
export function isSharedQueue(subscription: string): boolean {
  const colon = subscription.indexOf(':');
  if (colon < 0) return false;
  const type = subscription.slice(0, colon);
  return type === 'roundrobin' || type === 'direct';
}

/** A check request on a broker: fanout to the subscription, direct for `roundrobin:`/`direct:`; said when it cannot go. */
export function publishRequest(
  transport: Pick<WireTransport, 'send'>,
  log: { warn(fields: object, message: string): void },
  subscription: string,
  request: CheckRequest,
): void {
  if (!transport.send(isSharedQueue(subscription) ? 'direct' : 'fanout', subscription, JSON.stringify(request))) {
    log.warn({ subscription, check: request.name }, 'transport is not connected: check request not published');
  }
}

/** A legacy pipe's exchange type (`topic` only for transport handlers). */
export type PipeType = 'direct' | 'fanout' | 'topic';

/** A queue's depth and consumer count, as legacy `/info` reports them; null when not connected. */
export interface QueueStats {
  readonly messages: number | null;
  readonly consumers: number | null;
}

/** One keepalive or result taken from the broker; the server acknowledges it once handled. */
export interface WireDelivery {
  readonly body: Buffer;
  /** The broker delivered it before (to us or to another server). */
  readonly redelivered: boolean;
  ack(): void;
  /** Back to the queue (RabbitMQ); a no-op where the wire has no acknowledgement (Redis). */
  requeue(): void;
}

/** A broker between processes (RabbitMQ or Redis), speaking the legacy wire. */
export interface WireTransport extends Transport {
  readonly name: 'rabbitmq' | 'redis';
  connected(): boolean;
  /** Legacy transport.publish: false, and nothing sent, while not connected. */
  send(type: PipeType, pipe: string, body: string, options?: Record<string, unknown>): boolean;
  /**
   * A message to the direct `pipe` that the broker confirms (RabbitMQ): `settled(true)` once it took it, false when it
   * refused it or the connection went first. false, nothing sent, while not connected. Absent where the wire has none.
   */
  sendConfirmed?(pipe: string, body: string, settled: (confirmed: boolean) => void): boolean;
  /** Server intake: the direct pipe `pipe` read through `funnel`, each delivery acknowledged by the handler. */
  consume(pipe: string, funnel: string, handler: (delivery: WireDelivery) => void): void;
  /**
   * Keeps `funnel` declared and bound to the direct `pipe` on every (re)connection, before the listeners run, without
   * consuming it: what is published to `pipe` then waits there until a server reads it (lists persist in Redis).
   */
  route(pipe: string, funnel: string): void;
  stats(funnel: string): Promise<QueueStats>;
  /**
   * Legacy unsubscribe on the way out: the broker stops delivering to us at once; what we hold is
   * settled within `graceMs`, the rest returned to its queue. Publishing goes on until `close`.
   */
  stopConsuming(graceMs: number): Promise<void>;
  /** Runs after every (re)connection, once subscriptions and consumers are back. */
  onConnected(listener: () => void): void;
  /** Runs when a connection that had been reported connected is lost. */
  onDisconnected(listener: () => void): void;
  /** Starts connecting; the process keeps running while the broker is away. */
  start(): void;
}

/** What `/info` and `/health` say about the transport. */
export interface TransportInfo {
  readonly name: string;
  readonly connected: boolean;
  readonly keepalives?: QueueStats;
  readonly results?: QueueStats;
}

export function isWire(transport: Transport): transport is WireTransport {
  return typeof (transport as Partial<WireTransport>).send === 'function';
}

/** Legacy `transport_info`: the two server queues' figures. */
export async function transportInfo(transport: Transport): Promise<TransportInfo> {
  // The in-process bus has no queues to count.
  if (!isWire(transport)) return { name: 'in-process', connected: true };
  const unknown = { messages: null, consumers: null };
  if (!transport.connected()) return { name: transport.name, connected: false, keepalives: unknown, results: unknown };
  const [keepalives, results] = await Promise.all([transport.stats('keepalives').catch(() => unknown), transport.stats('results').catch(() => unknown)]);
  return { name: transport.name, connected: transport.connected(), keepalives, results };
}
