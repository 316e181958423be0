import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { attemptLogin, closedSignal, loginLimiterFor, storedHashProblem, verifyPassword, type LoginLimiter } from '../../auth/index.js';
import { hashApiKey } from '../../auth/index.js';
import { nowS, type Caller, type V2ApiDeps } from './context.js';
import { directoryLogin, isActive, isExternal } from '../../auth/index.js';
import { accessCacheOf } from './access-cache.js';
import type { StoredUser } from '../../store/index.js';

const text = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/plain; charset=utf-8').send(body);

function basic(request: FastifyRequest): { user: string; password: string } | null {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * A local user whose password matches, and who is not disabled; every path verifies one hash in the password pool
 * (an unknown user against a hash nobody matches). A user of an external provider has no local password: a hash
 * stored for one (an earlier version let them set one) never signs them in, so removal from the directory ends their access.
 */
export async function checkPassword(deps: V2ApiDeps, user: string, password: string, signal?: AbortSignal, priority = false): Promise<StoredUser | null> {
  const record = deps.store.resources.getUser(user);
  const stored: unknown = record && !isExternal(record) ? record.password_hash : undefined;
  const unusable = storedHashProblem(stored);
  if (unusable) deps.logger.warn({ user }, `user's password hash never signs in: ${unusable}`);
  const matches = await verifyPassword(password, stored, signal, priority);
  return matches && record && !record.disabled ? record : null;
}

/** The one limiter of failed password checks of every door (`/auth`, password changes, the agent WebSocket). */
export const loginLimiterOf = (deps: V2ApiDeps): LoginLimiter => loginLimiterFor(deps.store.resources, deps.clock);

/** A refusal without the password work: the limit (429) or a full password pool (503), each with when to retry. */
export function deferLogin(
  reply: FastifyReply,
  outcome: { kind: 'limited' | 'busy'; retryAfter: number },
  body: unknown = outcome.kind === 'limited' ? 'too many failed login attempts\n' : 'password checks are busy: try again shortly\n',
) {
  reply.code(outcome.kind === 'limited' ? 429 : 503).header('Retry-After', String(outcome.retryAfter));
  return typeof body === 'string' ? reply.type('text/plain; charset=utf-8').send(body) : reply.send(body);
}

/** Who is calling, from `Bearer <access token>` (its session still open) or `Key <api key>` (not revoked). */
export async function authenticate(deps: V2ApiDeps, request: FastifyRequest): Promise<Caller | null> {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ') && !header.startsWith('Key ')) return null;
  // Only successes are cached, keyed by the credential itself, for one access generation (see access-cache).
  const cache = accessCacheOf(deps.store.resources).callers;
  const nowMs = deps.clock.now();
  const cached = cache.get(header, nowMs);
  if (cached) return cached;
  const generation = deps.store.resources.accessGeneration;
  const found = await verifyCredential(deps, header);
  if (found) cache.set(header, found.caller, generation, nowMs, found.expS);
  return found?.caller ?? null;
}

async function verifyCredential(deps: V2ApiDeps, header: string): Promise<{ caller: Caller; expS: number } | null> {
  if (header.startsWith('Bearer ')) {
    const claims = await deps.tokens.verify(header.slice(7), 'access', { nowS: nowS(deps) });
    if (!claims || !deps.store.resources.getSession(claims.session_id)) return null;
    const user = deps.store.resources.getUser(claims.sub);
    return isActive(deps.store.resources, user)
      ? { caller: { username: claims.sub, groups: (user.groups ?? []) as string[], viaKey: false }, expS: Number(claims.exp) }
      : null;
  }
  const key = deps.store.resources.getApiKey(hashApiKey(header.slice(4).trim()));
  const user = key ? deps.store.resources.getUser(key.username) : null;
  return key && isActive(deps.store.resources, user)
    ? { caller: { username: key.username, groups: (user.groups ?? []) as string[], viaKey: true }, expS: Infinity }
    : null;
}

/** The `/auth` family: tokens from basic credentials, refresh, test, logout. */
/** A new session's (or a refreshed session's) access and refresh tokens, as `/auth` returns them. */
export async function issueTokens(deps: V2ApiDeps, username: string, groups: string[], sessionId: string = randomUUID()) {
  const pair = await deps.tokens.issue(username, groups, sessionId, nowS(deps));
  deps.store.resources.putSession(sessionId, username, pair.refresh_id, nowS(deps) + 12 * 3600, nowS(deps));
  return { access_token: pair.access_token, expires_at: pair.expires_at, refresh_token: pair.refresh_token };
}

export function registerAuthRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const issue = (username: string, groups: string[], sessionId: string) => issueTokens(deps, username, groups, sessionId);
  const limiter = loginLimiterOf(deps);
  // Basic credentials checked under the login limits, reserved before the work; null after replying.
  // `/auth` also asks the directories (LDAP, AD) after the local users; `/auth/test` only the local users.
  const login = async (request: FastifyRequest, reply: FastifyReply, refusal: string, directories: boolean) => {
    const credentials = basic(request);
    if (!credentials) return (void text(reply, 401, 'Request unauthorized\n'), null);
    const { signal, release } = closedSignal(request.raw.socket);
    const outcome = await attemptLogin(limiter, { address: request.ip, username: credentials.user }, async (priority) => {
      const local = await checkPassword(deps, credentials.user, credentials.password, signal, priority);
      return local ?? (directories ? await directoryLogin(deps.store.resources, deps.logger, credentials.user, credentials.password) : null);
    }).finally(release);
    if (outcome.kind === 'ok') return { name: String(outcome.value.username ?? credentials.user), user: outcome.value };
    if (outcome.kind === 'limited' || outcome.kind === 'busy') deferLogin(reply, outcome);
    else text(reply, 401, refusal);
    return null;
  };
  app.get('/auth', async (request, reply) => {
    const found = await login(request, reply, 'Unauthorized\n', true);
    return found ? issue(found.name, (found.user.groups ?? []) as string[], randomUUID()) : reply;
  });
  app.get('/auth/test', async (request, reply) => ((await login(request, reply, 'Request unauthorized\n', false)) ? reply.code(200).send() : reply));
  // Refresh: an access token (expired or not) and its session's current refresh token; reuse ends the session.
  const refreshed = async (request: FastifyRequest, reply: FastifyReply, logout: boolean) => {
    const header = request.headers.authorization ?? '';
    const access = header.startsWith('Bearer ') ? await deps.tokens.verify(header.slice(7), 'access', { allowExpired: true, nowS: nowS(deps) }) : null;
    if (!access) return text(reply, 401, 'Request unauthorized\n');
    const body = request.body as { refresh_token?: unknown } | null;
    if (!body || typeof body.refresh_token !== 'string') return text(reply, 400, 'refresh_token is required\n');
    const refresh = await deps.tokens.verify(body.refresh_token, 'refresh', { nowS: nowS(deps) });
    if (!refresh || refresh.sub !== access.sub || refresh.session_id !== access.session_id) return text(reply, 401, 'Request unauthorized\n');
    const session = deps.store.resources.getSession(refresh.session_id);
    if (!session || session.refreshId !== refresh.jti) {
      deps.store.resources.deleteSession(refresh.session_id);
      return text(reply, 400, 'invalid access token\n');
    }
    if (logout) {
      deps.store.resources.deleteSession(refresh.session_id);
      return reply.code(200).send();
    }
    const user = deps.store.resources.getUser(refresh.sub);
    if (!isActive(deps.store.resources, user)) return text(reply, 401, 'Unauthorized\n');
    return issue(refresh.sub, (user.groups ?? []) as string[], refresh.session_id);
  };
  app.post('/auth/token', (request, reply) => refreshed(request, reply, false));
  app.post('/auth/logout', (request, reply) => refreshed(request, reply, true));
}
