import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from './context.js';

const MEMBER_ID = 1;

/** GET /health: always 200; the embedded SQLite store is the one cluster member. */
export function registerHealthRoute(app: FastifyInstance, deps: V2ApiDeps): void {
  app.get('/health', (request, reply) => {
    const timeout = (request.query as { timeout?: string }).timeout;
    if (timeout !== undefined && !/^-?\d+$/.test(timeout))
      return reply
        .code(400)
        .type('text/plain; charset=utf-8')
        .send(`strconv.Atoi: parsing ${JSON.stringify(timeout)}: invalid syntax\n`);
    const err = deps.store.problem();
    return {
      Alarms: deps.store.alarm(),
      ClusterHealth: [{ MemberID: MEMBER_ID, MemberIDHex: MEMBER_ID.toString(16), Name: 'checkbridge', Err: err, Healthy: err === '' }],
      Header: { cluster_id: MEMBER_ID, member_id: MEMBER_ID, raft_term: 0 },
      // One entry per PostgresConfig, absent when there is none.
      ...(deps.postgres?.health() ? { PostgresHealth: deps.postgres.health() } : {}),
      ...(deps.annotations ? { Annotations: deps.annotations() } : {}),
    };
  });
  app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4').send((await deps.metrics?.()) ?? ''));
}
