import Fastify, { type FastifyInstance } from 'fastify';
import { fail, type V2ApiDeps } from './context.js';
import { MAX_PARAM_LENGTH } from '../../name-limits.js';
import { httpsOption } from '../../tls/index.js';
import { registerAuthRoutes } from './auth.js';
import { enforceAccess, registeredRoutes } from './access.js';
import { registerEventRoutes } from './events.js';
import { registerResourceRoutes, NAMESPACED_RESOURCE_KINDS } from './resources.js';
import { registerNamespaceRoutes } from './namespaces.js';
import { registerApiKeyRoutes } from './apikeys.js';
import { registerUserRoutes } from './users.js';
import { registerRbacRoutes } from './rbac-routes.js';
import { registerAuthProviderRoutes } from '../enterprise/authproviders.js';
import { registerOidcRoutes } from '../enterprise/oidc.js';
import { registerHealthRoute } from './health.js';
import { registerVersionRoutes } from './version.js';
import { registerCheckExecuteRoute } from './check-execute.js';
import { registerDashboard } from '../dashboard/index.js';
import { registerStoreRoutes } from '../enterprise/store.js';
import { registerSecretsRoutes } from '../enterprise/secrets.js';
import { registerCaseBlindBodies } from '../enterprise/case-blind.js';
import { dropEmptyBodyType, registerRedaction, lazySchemaController } from '../../http/index.js';
import { nestedTooDeep, DEPTH_MESSAGE } from '../../json-depth.js';
import { CheckbridgeError } from '../../errors.js';
import { PasswordsBusy } from '../../auth/index.js';
import { IntakeFull } from '../../intake/index.js';
import { recordRoutePaths, routedOtherwise } from './method-not-allowed.js';
import { acceptMergePatches, patchTypeProblem } from './merge-patch.js';
import { registerSilencedLists } from './silenced-lists.js';
import { registerCheckHookRoutes } from './check-hooks.js';

export type { V2ApiDeps } from './context.js';

/** The v2 HTTP API: every route needs a Bearer token or an API key but the few anonymous ones (access.ts). */
export function buildV2Api(deps: V2ApiDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: 512_000,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: false,
    forceCloseConnections: true,
    schemaController: lazySchemaController,
    ...httpsOption(deps.https),
  });
  enforceAccess(app, deps);
  recordRoutePaths(app);
  acceptMergePatches(app);
  registerRedaction(app, ['/auth', '/auth/token']);
  app.addHook('onRequest', async (request) => dropEmptyBodyType(request.headers));
  // Every body, on every route: our recursive walks must never meet more nesting than the stack holds.
  app.addHook('preValidation', async (request, reply) => {
    if (nestedTooDeep(request.body)) return fail(reply, 'invalid', DEPTH_MESSAGE);
  });
  // After the depth check: enterprise bodies' keys read case-blind, as Sensu Go's Go decoding reads them.
  registerCaseBlindBodies(app);
  // A known path with another method: 405 with no body, as Sensu Go's router answers (before authentication too).
  app.setNotFoundHandler((request, reply) =>
    routedOtherwise(app, request.method, request.raw.url ?? '') ? reply.code(405).send() : fail(reply, 'notFound', 'not found'),
  );
  app.setErrorHandler((error, request, reply) => {
    // Over the embedded datastore's quota: say so (507), reads keep working.
    const quota = deps.store.failure(error);
    // The shared store out of reach or behind: 503, come back.
    if (quota instanceof CheckbridgeError && quota.code === 'CB_STORE_UNAVAILABLE') reply.header('Retry-After', '1');
    if (quota instanceof CheckbridgeError)
      return reply.code(quota.httpStatus).header('X-Content-Type-Options', 'nosniff').send({ message: quota.message, code: 0 });
    // A password to hash or check while the password pool's queue is full: come back, nothing was done.
    if (error instanceof PasswordsBusy) return reply.code(503).header('Retry-After', String(error.retryAfterS)).send({ message: error.message, code: 0 });
    // An event while the intake is full (the store behind): nothing stored, come back.
    if (error instanceof IntakeFull) return reply.code(503).header('Retry-After', String(error.retryAfterS)).send({ message: error.message, code: 14 });
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) deps.logger.error({ err: error }, 'v2 API error');
    if (status >= 500) return fail(reply, 'internal', 'internal error occurred');
    // A PATCH in a type nothing reads: Sensu Go's 400 naming the one type it takes.
    if (status === 415 && request.method === 'PATCH') return fail(reply, 'invalid', patchTypeProblem(request.headers['content-type'])!);
    // Fastify's own 4xx (bad JSON, 413 body too large, 415) keep their status, with code 1 (invalid argument).
    return reply
      .code(status)
      .header('X-Content-Type-Options', 'nosniff')
      .send({ message: (error as Error).message, code: 1 });
  });
  registerHealthRoute(app, deps);
  registerVersionRoutes(app, deps.store.resources);
  registerAuthRoutes(app, deps);
  registerEventRoutes(app, deps);
  const writers = new Map(NAMESPACED_RESOURCE_KINDS.map((kind) => [kind.path, registerResourceRoutes(app, deps, kind)] as const));
  registerCheckHookRoutes(app, writers.get('checks')!);
  registerNamespaceRoutes(app, deps);
  registerSilencedLists(app, deps);
  registerCheckExecuteRoute(app, deps);
  registerApiKeyRoutes(app, deps);
  registerUserRoutes(app, deps);
  if (deps.dashboard) registerDashboard(app, deps, deps.dashboard);
  if (deps.postgres) registerStoreRoutes(app, deps, deps.postgres);
  registerRbacRoutes(app, deps);
  registerAuthProviderRoutes(app, deps);
  registerOidcRoutes(app, deps);
  registerSecretsRoutes(app, deps);
  // The whole route table at debug level: what an operator (and the adversarial suite) can check access against.
  app.addHook('onReady', async () => deps.logger.debug({ routes: registeredRoutes(app) }, 'v2 API routes'));
  return app;
}
