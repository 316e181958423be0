import type { FastifyInstance } from 'fastify';
import { fail } from './context.js';

// The Sensu Go release whose v2 API this one answers as (the interop clients are 6.12).
const SENSU_BACKEND = '6.12.0';
// The API groups served here; core/v2 at the version Sensu Go 6.12 gives it, since its routes answer as that release's.
const API_GROUPS = { 'core/v2': 'v2.20.0', 'secrets/v1': 'v1.0.0', 'store/v1': 'v1.0.0', 'authentication/v2': 'v2.0.0' };

/**
 * `GET /version` as Sensu Go answers it (the official Python client's first call): the backend's version, no etcd (the
 * store is SQLite or PostgreSQL). Tessen, Sensu Go's telemetry, is off and has nothing to send: `GET
 * /api/core/v2/tessen` says `opt_out: true`, and `PUT` refuses to turn it on.
 */
export function registerVersionRoutes(app: FastifyInstance): void {
  app.get('/version', () => ({ etcd: null, sensu_backend: SENSU_BACKEND, api_groups: API_GROUPS }));
  app.get('/api/core/v2/tessen', () => ({ opt_out: true }));
  app.put('/api/core/v2/tessen', (request, reply) => {
    const body = request.body as { opt_out?: unknown } | null;
    if (body?.opt_out === true) return reply.code(200).send({ opt_out: true });
    return fail(reply, 'invalid', 'tessen (telemetry to Sensu Inc.) is not part of checkbridge: nothing is ever sent, so opt_out stays true');
  });
}
