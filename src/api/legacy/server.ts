import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { dropEmptyBodyType, registerRedaction, lazySchemaController } from '../../http/index.js';
import type { AddRoute, LegacyApiDeps, RouteMethod } from './deps.js';
import { refuse } from './http.js';
import { legacyViews } from './views.js';
import { registerInfoRoutes } from './info.js';
import { registerClientRoutes } from './clients.js';
import { registerCheckRoutes } from './checks.js';
import { registerEventRoutes } from './events.js';
import { registerResultRoutes } from './results.js';
import { registerSilencedRoutes } from './silenced.js';
import { registerAggregateRoutes } from './aggregates.js';
import { registerStashRoutes } from './stashes.js';
import { MAX_PARAM_LENGTH } from '../../name-limits.js';
import { httpsOption } from '../../tls/index.js';
import { nestedTooDeep, DEPTH_MESSAGE } from '../../json-depth.js';
import { legacyApiCorsOf, legacyApiCredentialsOf } from '../../config/index.js';
import { SENSU_NAME, unanchored } from '../../rules/index.js';

export type { AddRoute, LegacyApiDeps } from './deps.js';

// A parameter, once decoded, may hold Sensu Go's characters (`:` of agent names); so may a path matched for 405's Allow.
const NAME = unanchored(SENSU_NAME);
const PARAM = SENSU_NAME;

interface RouteSpec {
  method: RouteMethod;
  path: string;
  pattern: RegExp;
}

/** Compared in a time that says nothing of how much of a guess was right. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function toPattern(path: string): RegExp {
  return new RegExp('^' + path.replace(/:[a-z]+/g, NAME) + '$');
}

/** The legacy REST API: one file per resource, each adding its routes through `route`. */
export function buildLegacyApi(deps: LegacyApiDeps): FastifyInstance {
  const views = legacyViews(deps);
  const app = Fastify({
    logger: false,
    return503OnClosing: false,
    forceCloseConnections: true,
    schemaController: lazySchemaController,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ...httpsOption(deps.https),
  });
  registerRedaction(app);
  app.addHook('onRequest', async (request) => dropEmptyBodyType(request.headers));
  const routes: RouteSpec[] = [];
  // Adds a route (GET also answers HEAD); `pattern` is the legacy path regex used for 405 `Allow` when `:param` is not `[\w.-]+`.
  const route: AddRoute = (method, path, handler, pattern) => {
    const spec = { method, path, pattern: pattern ?? toPattern(path) };
    routes.push(spec);
    // A name is legacy's `[\w.-]+` (and `:`, which agent names hold) once decoded: an encoded `/` or `%00` names nothing.
    const guarded = (request: FastifyRequest, reply: FastifyReply) =>
      pattern || Object.values(request.params as Record<string, string>).every((value) => PARAM.test(value)) ? handler(request, reply) : reply.code(404).send();
    app.route({ method: method === 'GET' ? ['GET', 'HEAD'] : method, url: path, handler: guarded as never });
  };
  addRequestHooks(app, deps);
  addFallbacks(app, deps, routes);

  registerInfoRoutes(route, deps);
  registerClientRoutes(route, deps, views);
  registerCheckRoutes(route, deps);
  registerEventRoutes(route, deps, views);
  registerResultRoutes(route, deps, views);
  registerSilencedRoutes(route, deps);
  registerAggregateRoutes(route, deps);
  registerStashRoutes(route, deps);
  return app;
}

/** Before any route: request id, CORS, preflight, basic auth when api.user is set, and the nesting bound on bodies. */
function addRequestHooks(app: FastifyInstance, deps: LegacyApiDeps): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', (request.headers['x-request-id'] as string | undefined) ?? randomUUID());
    reply.header('Connection', 'close');
    for (const [suffix, value] of Object.entries(legacyApiCorsOf(deps.settings()))) reply.header(`Access-Control-Allow-${suffix}`, value);
    if (request.method === 'OPTIONS') return reply.code(200).send();
    const api = legacyApiCredentialsOf(deps.settings());
    if (api) {
      const header = request.headers.authorization ?? '';
      const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':'); // split on the first colon only: a password may hold colons
      if (colon < 0 || !sameSecret(decoded.slice(0, colon), api.user) || !sameSecret(decoded.slice(colon + 1), api.password)) {
        return reply.code(401).header('WWW-Authenticate', 'Basic realm="Restricted Area"').send();
      }
    }
  });

  // Every body, whatever the route, before any handler walks it.
  app.addHook('preValidation', async (request, reply) => {
    if (nestedTooDeep(request.body)) return refuse(reply, DEPTH_MESSAGE);
  });
}

/** No route: 405 with `Allow` when the path exists under other methods, else 404; errors as empty-bodied statuses. */
function addFallbacks(app: FastifyInstance, deps: LegacyApiDeps, routes: readonly RouteSpec[]): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routes.filter((r) => r.pattern.test(path)).flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
    if (allowed.length > 0)
      return reply
        .code(405)
        .header('Allow', [...new Set(allowed)].join(', '))
        .send();
    return reply.code(404).send();
  });
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) deps.logger.error({ err: error }, 'legacy API error');
    return reply.code(status >= 400 && status < 600 ? status : 500).send();
  });
}
