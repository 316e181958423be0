import Fastify, { type FastifyInstance } from 'fastify';
import { ADMIN_GROUP, fail, type V2ApiDeps } from './context.js';
import { authenticate, registerAuthRoutes } from './auth.js';
import { registerEventRoutes } from './events.js';
import { registerResourceRoutes, registerNamespaceRoutes, KINDS } from './resources.js';
import { registerApiKeyRoutes } from './apikeys.js';
import { registerUserRoutes } from './users.js';
import { registerHealthRoute } from './health.js';
import { registerRedaction } from '../redaction.js';

export type { V2ApiDeps } from './context.js';

/** The v2 HTTP API (spec 4): every `/api/` route needs a Bearer token or an API key; `/health` and `/auth` do not. */
export function buildV2Api(deps: V2ApiDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 512_000, return503OnClosing: false, forceCloseConnections: true });
  registerRedaction(app, ['/auth', '/auth/token']);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const caller = await authenticate(deps, request);
    if (!caller) {
      const header = request.headers.authorization ?? '';
      return fail(reply, 'unauthenticated', header.startsWith('Bearer ') || header.startsWith('Key ') ? 'invalid credentials' : 'bad credentials');
    }
    (request as unknown as { caller: typeof caller }).caller = caller;
    // API keys are cluster-wide: only cluster admins grant, view and revoke them (spec 5.3).
    if (request.url.startsWith('/api/core/v2/apikeys') && !caller.groups.includes(ADMIN_GROUP)) return fail(reply, 'forbidden', 'unauthorized to perform action');
  });
  app.setNotFoundHandler((_request, reply) => fail(reply, 'notFound', 'not found'));
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) deps.logger.error({ err: error }, 'v2 API error');
    if (status >= 500) return fail(reply, 'internal', 'internal error occurred');
    // Fastify's own 4xx (bad JSON, 413 body too large, 415) keep their status, with code 1 (invalid argument).
    return reply.code(status).header('X-Content-Type-Options', 'nosniff').send({ message: (error as Error).message, code: 1 });
  });
  registerHealthRoute(app, deps);
  registerAuthRoutes(app, deps);
  registerEventRoutes(app, deps);
  for (const kind of KINDS) registerResourceRoutes(app, deps, kind);
  registerNamespaceRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerUserRoutes(app, deps);
  return app;
}
