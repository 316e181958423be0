import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import { fail, setCaller, type V2ApiDeps } from './context.js';
import { authorize, type Verb } from '../../auth/index.js';
import { rbacView } from './rbac-store.js';
import { authenticate } from './auth.js';
import { accessCacheOf, decisionKey } from './access-cache.js';

/**
 * Routes anyone may call (the matched route's pattern, not the request's URL): health, version (public in Sensu Go too), metrics, the login family and
 * the dashboard's static page (every piece of data it shows comes through authenticated routes).
 */
const ANONYMOUS = new Set(['/health', '/version', '/metrics', '/auth', '/auth/test', '/auth/token', '/auth/logout', '/', '/assets/:file']);
// The single-sign-on redirects: the browser arrives without credentials, the flow itself authenticates.
const OIDC_FLOW = '/api/enterprise/authentication/v2/oidc/';

export type Access = 'anonymous' | 'rbac';

function accessOf(pattern: string): Access {
  return ANONYMOUS.has(pattern) || pattern.startsWith(OIDC_FLOW) ? 'anonymous' : 'rbac';
}

/** What a route acts on, read from its pattern: the RBAC resource, the namespace and name parameters, the verb. */
export interface RouteTarget {
  readonly resource: string;
  readonly namespaceParam: string | null;
  readonly nameParams: readonly string[];
  readonly verb: Verb;
  /** A user may read themselves and change their own password whatever their roles (Sensu Go's localselfuser). */
  readonly self: boolean;
  /** The handler filters what it answers by the caller's grants. */
  readonly filtered: boolean;
}

const SELF = new Set(['GET /api/core/v2/users/:name', 'PUT /api/core/v2/users/:name/password', 'PUT /api/core/v2/users/:name/change_password']);

/** Routes whose handler shows each caller only what they may see (namespaces where they hold a grant): authenticated, no decision here. */
const FILTERED = new Set(['GET /api/core/v2/namespaces', 'GET /api/core/v2/namespaces/:name']);

function targetOf(method: string, pattern: string): RouteTarget {
  let rest = pattern.split('/').filter(Boolean);
  // /api/<group>/<version>/… and /api/enterprise/<group>/<version>/…
  if (rest[0] === 'api') rest = rest.slice(rest[1] === 'enterprise' ? 4 : 3);
  const namespaced = rest[0] === 'namespaces' && rest[1]?.startsWith(':') && rest.length > 2;
  const namespaceParam = namespaced ? rest[1]!.slice(1) : null;
  if (namespaced) rest = rest.slice(2);
  const resource = rest[0] ?? '*';
  // The name is the parameters right after the resource: `checks/:name/hooks/:type` acts on check :name.
  const literal = rest.findIndex((s, i) => i > 0 && !s.startsWith(':'));
  const nameParams = rest.slice(1, literal === -1 ? undefined : literal).map((s) => s.slice(1));
  // `GET …/events/:entity` lists that entity's events.
  const named = nameParams.length > 0 && !(resource === 'events' && nameParams.length === 1);
  const verb: Verb =
    method === 'GET' || method === 'HEAD' ? (named ? 'get' : 'list') : method === 'POST' ? 'create' : method === 'DELETE' ? 'delete' : 'update';
  const key = `${method === 'HEAD' ? 'GET' : method} ${pattern}`;
  return { resource, namespaceParam, nameParams, verb, self: SELF.has(key), filtered: FILTERED.has(key) };
}

const ASSET_NAMED = /^\/api\/core\/v2\/namespaces\/:namespace\/assets\/:name$/;

/**
 * Refuses request targets the router could read differently from a person: absolute-form (`GET http://h/api`),
 * encoded slashes or backslashes, dot segments and empty segments. Everything else is decoded by the router alone.
 */
function unsafeTarget(rawUrl: string, route: string | undefined): string | null {
  if (!rawUrl.startsWith('/')) return 'the request target must be an absolute path';
  const query = rawUrl.indexOf('?');
  const path = query === -1 ? rawUrl : rawUrl.slice(0, query);
  // Without `%`, `\\`, `//` or `/.` none of the checks below can refuse it (the common case: no regex run).
  if (!path.includes('%') && !path.includes('\\') && !path.includes('//') && !path.includes('/.')) return null;
  // An asset's name may hold `/` (`sensu/check-cpu-usage`): encoded, in the last segment of an asset's own route only.
  const checked = route !== undefined && ASSET_NAMED.test(route) ? path.slice(0, path.lastIndexOf('/')) : path;
  if (/%(2f|5c)/i.test(checked) || path.includes('\\') || /%5c/i.test(path)) return 'encoded slashes are not allowed in the path';
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

// RBAC decisions per (user, groups, verb, resource, namespace, name), for one access generation: a change to any
// role or binding applies to the next request.
// A grant without resource names allows every name: the decision for no name, when it allows, stands for each name
// (one entry per caller and route instead of one per event's entity and check).
function decide(deps: V2ApiDeps, username: string, groups: readonly string[], verb: Verb, resource: string, namespace: string | null, name: string | null) {
  const nowMs = deps.clock.now();
  const anyName = decideOne(deps, nowMs, username, groups, verb, resource, namespace, null);
  return name === null || anyName.allowed ? anyName : decideOne(deps, nowMs, username, groups, verb, resource, namespace, name);
}

function decideOne(
  deps: V2ApiDeps,
  nowMs: number,
  username: string,
  groups: readonly string[],
  verb: Verb,
  resource: string,
  namespace: string | null,
  name: string | null,
) {
  const cache = accessCacheOf(deps.store.resources).decisions;
  const key = decisionKey(username, groups, verb, resource, namespace, name);
  const cached = cache.get(key, nowMs);
  if (cached) return cached;
  const generation = deps.store.resources.accessGeneration;
  const decision = authorize(rbacView(deps.store.resources), username, groups, verb, resource, namespace, name);
  cache.set(key, decision, generation, nowMs);
  return decision;
}

function guard(deps: V2ApiDeps, targets: ReadonlyMap<string, RouteTarget>): onRequestHookHandler {
  return async function authorise(request: FastifyRequest, reply: FastifyReply) {
    const caller = await authenticate(deps, request);
    if (!caller) {
      const header = request.headers.authorization ?? '';
      return fail(reply, 'unauthenticated', header.startsWith('Bearer ') || header.startsWith('Key ') ? 'invalid credentials' : 'bad credentials');
    }
    setCaller(request, caller);
    const target = targets.get(request.method)!;
    const params = request.params as Record<string, string>;
    const name = target.nameParams.length > 0 ? target.nameParams.map((p) => params[p]).join('/') : null;
    if (target.self && name === caller.username) return;
    if (target.filtered) return;
    const namespace = target.namespaceParam === null ? null : params[target.namespaceParam]!;
    const decision = decide(deps, caller.username, caller.groups, target.verb, target.resource, namespace, target.verb === 'list' ? null : name);
    if (!decision.allowed) return fail(reply, 'forbidden', decision.reason);
  };
}

/**
 * Every route gets its access decision when it is registered, from its own pattern: the hook runs on the route the
 * router matched, after decoding, so no spelling of a URL can reach a handler without it. Call before adding routes.
 */
const registered = new WeakMap<FastifyInstance, { method: string; url: string; access: Access }[]>();

/** Every route the app registered, with the access decided for it: what the adversarial suite walks. */
export const registeredRoutes = (app: FastifyInstance) => [...(registered.get(app) ?? [])];

export function enforceAccess(app: FastifyInstance, deps: V2ApiDeps): void {
  app.addHook('onRequest', async (request, reply) => {
    const problem = unsafeTarget(request.raw.url ?? '', request.routeOptions.url);
    if (problem) return fail(reply, 'invalid', problem);
  });
  const routes: { method: string; url: string; access: Access }[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, access: accessOf(route.url) });
    if (accessOf(route.url) === 'anonymous') return;
    const targets = new Map([route.method].flat().map((method) => [method, targetOf(method, route.url)] as const));
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [guard(deps, targets), ...existing] as onRequestHookHandler[];
  });
}
