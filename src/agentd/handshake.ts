import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { AGENT_GROUP, isActive, isExternal, verifyPassword, hashPassword, type Decision } from '../auth/index.js';
import type { ResourceTables } from '../store/index.js';
import type { AgentIdentity } from './sessions.js';
import { agentHeadersProblem } from './agent-name.js';

/** The request headers of Sensu Go's agent that matter here (transport/transport.go), lower-cased as Node gives them; `Sensu-User` is not trusted: the credentials say who it is. */
const HEADER = { name: 'sensu-agentname', namespace: 'sensu-namespace', subscriptions: 'sensu-subscriptions' } as const;

export type Admission = { readonly ok: true; readonly identity: AgentIdentity } | { readonly ok: false; readonly status: number; readonly message: string };

export interface HandshakeDeps {
  readonly resources: ResourceTables;
  /** May this user (of these groups) act as an agent in `namespace`: create events there (Sensu Go's agent authorization). */
  readonly authorize: (username: string, groups: readonly string[], namespace: string) => Decision;
  /** Whether the agent's entity is known already: a known one reconnects past the entity limit. */
  readonly isKnown: (namespace: string, name: string) => boolean;
  /** The entity limit's refusal of one more entity, or null. */
  readonly entityRefusal: () => string | null;
}

// A hash of a password nobody knows: an unknown user costs one verification too, so timing does not tell which names exist.
let dummyHash: Promise<string> | null = null;
const dummy = () => (dummyHash ??= hashPassword(randomUUID()));

/** Verified Basic credentials, kept per access generation: thousands of agents share one user, and reconnect at once. */
export class CredentialCache {
  private generation = -1;
  private readonly known = new Map<string, { username: string; groups: string[] }>();

  async verify(resources: ResourceTables, header: string): Promise<{ username: string; groups: string[] } | null> {
    if (resources.accessGeneration !== this.generation) {
      this.known.clear();
      this.generation = resources.accessGeneration;
    }
    const cached = this.known.get(header);
    if (cached) return cached;
    const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const [username, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    const record = resources.getUser(username);
    const stored: unknown = record && !isExternal(record) ? record.password_hash : undefined;
    const matches = await verifyPassword(password, typeof stored === 'string' ? stored : await dummy());
    if (!matches || typeof stored !== 'string' || !isActive(resources, record)) return null;
    const found = { username, groups: (record!.groups ?? []) as string[] };
    if (this.known.size < 10_000) this.known.set(header, found);
    return found;
  }
}

/** The verified client certificate's common name, when the agent presented one (mutual TLS). */
function certificateName(request: IncomingMessage): string | null {
  const socket = request.socket as Partial<TLSSocket>;
  if (!socket.encrypted || !socket.authorized || typeof socket.getPeerCertificate !== 'function') return null;
  const cn = socket.getPeerCertificate().subject?.CN;
  return typeof cn === 'string' && cn !== '' ? cn : null;
}

const refuse = (status: number, message: string): Admission => ({ ok: false, status, message });

/**
 * The handshake as Sensu Go's agentd answers it: 401 without valid credentials (Basic, or a verified certificate whose
 * common name is the agent), 403 without the agent role, 404 an unknown namespace, 402 a new agent past the entity limit.
 */
export async function admitAgent(request: IncomingMessage, deps: HandshakeDeps, credentials: CredentialCache): Promise<Admission> {
  const header = (name: string) => {
    const value = request.headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  };
  const name = header(HEADER.name);
  const namespace = header(HEADER.namespace);
  if (name === '') return refuse(400, 'the Sensu-AgentName header is missing');
  const badName = agentHeadersProblem(request, name, namespace);
  if (badName) return refuse(400, badName);
  const authorization = request.headers.authorization ?? '';
  const certified = certificateName(request);
  let caller: { username: string; groups: readonly string[] } | null = null;
  if (authorization.startsWith('Basic ')) caller = await credentials.verify(deps.resources, authorization);
  else if (certified !== null) {
    if (certified !== name) return refuse(401, `the client certificate's common name ${JSON.stringify(certified)} is not the agent ${JSON.stringify(name)}`);
    caller = { username: certified, groups: [AGENT_GROUP] };
  }
  if (!caller) return refuse(401, 'bad credentials');
  const decision = deps.authorize(caller.username, caller.groups, namespace || 'default');
  if (!decision.allowed) return refuse(403, decision.reason);
  if (namespace === '' || !deps.resources.getResource('Namespace', '', namespace)) return refuse(404, `namespace ${JSON.stringify(namespace)} not found`);
  if (!deps.isKnown(namespace, name)) {
    const refusal = deps.entityRefusal();
    if (refusal) return refuse(402, refusal);
  }
  const subscriptions = header(HEADER.subscriptions).split(',').map((s) => s.trim()).filter((s) => s !== '');
  const tls = Boolean((request.socket as Partial<TLSSocket>).encrypted);
  return { ok: true, identity: { name, namespace, user: caller.username, subscriptions, tls, mtls: certified !== null } };
}

/** New connections a second, at most `perSecond` (0: no bound): past it the agent is told 429 and backs off. */
export class ConnectionRate {
  private windowStart = 0;
  private inWindow = 0;

  constructor(private readonly perSecond: () => number) {}

  admit(nowMs: number): boolean {
    const limit = this.perSecond();
    if (limit <= 0) return true;
    if (nowMs - this.windowStart >= 1000) [this.windowStart, this.inWindow] = [nowMs, 0];
    if (this.inWindow >= limit) return false;
    this.inWindow += 1;
    return true;
  }
}
