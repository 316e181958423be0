import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import { ADMIN_GROUP, fail, setCaller, type V2ApiDeps } from './context.js';
import { authenticate } from './auth.js';

/** Routes anyone may call (the matched route's pattern, not the request's URL): health, metrics and the login family. */
const ANONYMOUS = new Set(['/health', '/metrics', '/auth', '/auth/test', '/auth/token', '/auth/logout']);

/** Routes only cluster admins may call: API keys are cluster-wide (spec 5.3), and so is managing users. */
const ADMIN_ONLY = new Set(['POST /api/core/v2/users', 'GET /api/core/v2/users', 'PUT /api/core/v2/users/:name', 'DELETE /api/core/v2/users/:name']);
// Secrets providers and secrets: cluster-wide configuration that reaches every command's environment.
const isAdminOnly = (method: string, pattern: string) =>
  pattern === '/api/core/v2/apikeys' || pattern.startsWith('/api/core/v2/apikeys/') || pattern.startsWith('/api/enterprise/secrets/') || ADMIN_ONLY.has(`${method} ${pattern}`);

export type Access = 'anonymous' | 'user' | 'admin';

export function accessOf(method: string, pattern: string): Access {
  if (ANONYMOUS.has(pattern)) return 'anonymous';
  return isAdminOnly(method, pattern) ? 'admin' : 'user';
}

/**
 * Refuses request targets the router could read differently from a person: absolute-form (`GET http://h/api`),
 * encoded slashes or backslashes, dot segments and empty segments. Everything else is decoded by the router alone.
 */
export function unsafeTarget(rawUrl: string): string | null {
  if (!rawUrl.startsWith('/')) return 'the request target must be an absolute path';
  const path = rawUrl.split('?')[0]!;
  if (/%(2f|5c)/i.test(path) || path.includes('\\')) return 'encoded slashes are not allowed in the path';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 'the path is not valid percent-encoding';
  }
  for (const candidate of [path, decoded]) {
    if (candidate.includes('//')) return 'empty path segments are not allowed';
    if (candidate.split('/').some((segment) => segment === '.' || segment === '..')) return 'dot segments are not allowed in the path';
  }
  return null;
}

function guard(deps: V2ApiDeps, access: Exclude<Access, 'anonymous'>): onRequestHookHandler {
  return async function authorise(request: FastifyRequest, reply: FastifyReply) {
    const caller = await authenticate(deps, request);
    if (!caller) {
      const header = request.headers.authorization ?? '';
      return fail(reply, 'unauthenticated', header.startsWith('Bearer ') || header.startsWith('Key ') ? 'invalid credentials' : 'bad credentials');
    }
    setCaller(request, caller);
    if (access === 'admin' && !caller.groups.includes(ADMIN_GROUP)) return fail(reply, 'forbidden', 'unauthorized to perform action');
  };
}

/**
 * Every route gets its access decision when it is registered, from its own pattern: the hook runs on the route the
 * router matched, after decoding, so no spelling of a URL can reach a handler without it. Call before adding routes.
 */
export function enforceAccess(app: FastifyInstance, deps: V2ApiDeps): void {
  const hooks = { user: guard(deps, 'user'), admin: guard(deps, 'admin') };
  app.addHook('onRequest', async (request, reply) => {
    const problem = unsafeTarget(request.raw.url ?? '');
    if (problem) return fail(reply, 'invalid', problem);
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = [route.method].flat();
    const levels = new Set(methods.map((method) => accessOf(method, route.url)));
    // One route answering several methods must not mix levels: the strictest applies to all.
    const access: Access = levels.has('admin') ? 'admin' : levels.has('user') ? 'user' : 'anonymous';
    if (access === 'anonymous') return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [hooks[access], ...existing] as onRequestHookHandler[];
  });
}
