import type { FastifyInstance } from 'fastify';
import type { ResourceTables } from '../../store/index.js';
import { fail } from './context.js';

// The Sensu Go release whose v2 API this one answers as (the interop clients are 6.12).
const SENSU_BACKEND = '6.12.0';
// The API groups served here; core/v2 at the version Sensu Go 6.12 gives it, since its routes answer as that release's.
const API_GROUPS = { 'core/v2': 'v2.20.0', 'secrets/v1': 'v1.0.0', 'store/v1': 'v1.0.0', 'authentication/v2': 'v2.0.0' };
// Where the tessen choice is kept: one cluster-wide row, as Sensu Go keeps one TessenConfig.
const TESSEN = { kind: 'TessenConfig', namespace: '', name: 'tessen' } as const;

/**
 * `GET /version` as Sensu Go answers it (the official Python client's first call): the backend's version, no etcd (the
 * store is SQLite or PostgreSQL). Tessen, Sensu Go's telemetry, has nothing to send here: the choice is kept and
 * served back (so clients that set it, such as Sensu's Ansible collection, converge), opted out until set, and
 * whatever it says nothing is ever sent.
 */
export function registerVersionRoutes(app: FastifyInstance, resources: ResourceTables): void {
  app.get('/version', () => ({ etcd: null, sensu_backend: SENSU_BACKEND, api_groups: API_GROUPS }));
  app.get('/api/core/v2/tessen', () => ({ opt_out: resources.getResource(TESSEN.kind, TESSEN.namespace, TESSEN.name)?.opt_out !== false }));
  app.put('/api/core/v2/tessen', (request, reply) => {
    const optOut = (request.body as { opt_out?: unknown } | null)?.opt_out;
    if (typeof optOut !== 'boolean') return fail(reply, 'invalid', 'opt_out must be true or false');
    resources.putResource(TESSEN.kind, TESSEN.namespace, TESSEN.name, { opt_out: optOut });
    return reply.code(200).send({ opt_out: optOut });
  });
}
