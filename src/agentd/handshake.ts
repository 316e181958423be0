import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  AGENT_GROUP,
  attemptLogin,
  authorize,
  rbacView,
  closedSignal,
  isActive,
  isExternal,
  verifyPassword,
  type LoginLimiter,
  type LoginOutcome,
} from '../auth/index.js';
import type { ResourceTables, StateStore } from '../store/index.js';
import type { AgentIdentity } from './sessions.js';
import { agentHeadersProblem } from './agent-name.js';

/** The request headers of Sensu Go's agent that matter here (transport/transport.go), lower-cased as Node gives them; `Sensu-User` is not trusted: the credentials say who it is. */
const HEADER = { name: 'sensu-agentname', namespace: 'sensu-namespace', subscriptions: 'sensu-subscriptions' } as const;

export type Admission =
  | { readonly ok: true; readonly identity: AgentIdentity }
  | { readonly ok: false; readonly status: number; readonly message: string; readonly retryAfter?: number };

export interface HandshakeDeps {
  readonly resources: ResourceTables;
  readonly store: StateStore;
  /** The entity limit's refusal of one more entity, or null. */
  readonly entityRefusal: () => string | null;
}

/** Whether the agent's entity is known already (its client record or its entity): a known one reconnects past the entity limit. */
function isKnown(store: StateStore, namespace: string, name: string): Promise<boolean> {
  const rows = { pairs: [], clients: [name], v2: { events: [], entities: [[namespace, name] as const] } };
  return store.read(rows, () => store.getClient(name) !== null || store.resources.getEntity(namespace, name) !== null);
}

type Verified = { username: string; groups: string[] };
export type Credentials = LoginOutcome<Verified>;

/**
 * Verified Basic credentials, kept per access generation: thousands of agents share one user, and reconnect at once.
 * A miss is one attempt under the login limits every door shares, its password work in the pool, none once the socket closed.
 */
export class CredentialCache {
  private generation = -1;
  private readonly known = new Map<string, Verified>();
  // The same credentials arriving while their check runs wait for it rather than queue their own.
  private readonly pending = new Map<string, Promise<Credentials>>();

  async verify(resources: ResourceTables, header: string, limiter: LoginLimiter, socket: Socket): Promise<Credentials> {
    if (resources.accessGeneration !== this.generation) {
      this.known.clear();
      this.generation = resources.accessGeneration;
    }
    const cached = this.known.get(header);
    if (cached) return { kind: 'ok', value: cached };
    const running = this.pending.get(header);
    const shared = running && (await running);
    if (shared && shared.kind === 'ok') return shared;
    const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { kind: 'refused' };
    const [username, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    // A handshake's socket is read while it waits: a peer's FIN ('end') is a connection gone too.
    const { signal, release } = closedSignal(socket, ['close', 'end']);
    const attempt = attemptLogin(limiter, { address: socket.remoteAddress ?? '', username }, async (priority) => {
      const record = resources.getUser(username);
      const matches = await verifyPassword(password, record && !isExternal(record) ? record.password_hash : undefined, signal, priority);
      return matches && isActive(resources, record) ? { username, groups: (record!.groups ?? []) as string[] } : null;
    }).finally(release);
    this.pending.set(header, attempt);
    const outcome = await attempt.finally(() => this.pending.get(header) === attempt && this.pending.delete(header));
    if (outcome.kind === 'ok' && this.known.size < 10_000) this.known.set(header, outcome.value);
    return outcome;
  }
}

/** The verified client certificate's common name, when the agent presented one (mutual TLS). */
function certificateName(request: IncomingMessage): string | null {
  const socket = request.socket as Partial<TLSSocket>;
  if (!socket.encrypted || !socket.authorized || typeof socket.getPeerCertificate !== 'function') return null;
  const cn = socket.getPeerCertificate().subject?.CN;
  return typeof cn === 'string' && cn !== '' ? cn : null;
}

const refuse = (status: number, message: string, retryAfter?: number): Admission => ({ ok: false, status, message, ...(retryAfter ? { retryAfter } : {}) });

/**
 * The handshake as Sensu Go's agentd answers it: 401 without valid credentials (Basic, or a verified certificate whose
 * common name is the agent), 403 without the agent role, 404 an unknown namespace, 402 a new agent past the entity limit.
 */
export async function admitAgent(request: IncomingMessage, deps: HandshakeDeps, credentials: CredentialCache, logins: LoginLimiter): Promise<Admission> {
  const header = (name: string) => {
    const value = request.headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  };
  const name = header(HEADER.name);
  const namespace = header(HEADER.namespace);
  if (name === '') return refuse(400, 'the Sensu-AgentName header is missing');
  const badName = agentHeadersProblem(request, name, namespace);
  if (badName) return refuse(400, badName);
  const certified = certificateName(request);
  // A verified certificate names the one agent it may be, whatever credentials come with it.
  if (certified !== null && certified !== name)
    return refuse(401, `the client certificate's common name ${JSON.stringify(certified)} is not the agent ${JSON.stringify(name)}`);
  const authorization = request.headers.authorization ?? '';
  let caller: { username: string; groups: readonly string[] } | null = null;
  if (authorization.startsWith('Basic ')) {
    const outcome = await credentials.verify(deps.resources, authorization, logins, request.socket);
    if (outcome.kind === 'limited') return refuse(429, `too many failed logins: retry in ${outcome.retryAfter} s`, outcome.retryAfter);
    if (outcome.kind === 'busy') return refuse(429, 'password checks are busy: retry later', outcome.retryAfter);
    if (outcome.kind === 'gone') return refuse(400, 'the connection closed before its password check');
    caller = outcome.kind === 'ok' ? outcome.value : null;
  } else if (certified !== null) caller = { username: certified, groups: [AGENT_GROUP] };
  if (!caller) return refuse(401, 'bad credentials');
  // Sensu Go's agent authorization: the user (of these groups) may create events in the namespace.
  const decision = authorize(rbacView(deps.resources), caller.username, caller.groups, 'create', 'events', namespace || 'default', null);
  if (!decision.allowed) return refuse(403, decision.reason);
  if (namespace === '' || !deps.resources.getResource('Namespace', '', namespace)) return refuse(404, `namespace ${JSON.stringify(namespace)} not found`);
  if (!(await isKnown(deps.store, namespace, name))) {
    const refusal = deps.entityRefusal();
    if (refusal) return refuse(402, refusal);
  }
  const subscriptions = header(HEADER.subscriptions)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
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
