import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from '../v2/context.js';
import { fail, callerOf } from '../v2/context.js';
import { PREFIX, type DashboardDeps } from './deps.js';
import type { CheckConfig } from '../../v2/index.js';

/** The v2 CheckConfigs of a namespace with their next scheduled request, and "Run now" (ad hoc execution). */
export function registerV2CheckRoutes(app: FastifyInstance, deps: V2ApiDeps, dash: DashboardDeps): void {
  app.get(`${PREFIX}/namespaces/:namespace/checks`, (request) => {
    const { namespace } = request.params as { namespace: string };
    const next = new Map((dash.v2Checks?.nextExecutions() ?? []).filter((n) => n.namespace === namespace).map((n) => [n.name, n.next]));
    return deps.store.resources.listResources('CheckConfig', namespace).map((c: CheckConfig) => ({
      name: String(c.metadata?.name),
      namespace,
      command: c.command ?? null,
      publish: c.publish === true,
      interval: c.interval ?? null,
      cron: c.cron ?? null,
      subscriptions: c.subscriptions ?? [],
      round_robin: c.round_robin === true,
      proxy: Boolean(c.proxy_requests),
      handlers: c.handlers ?? [],
      // Null when unpublished, or when this server is not the one scheduling (not elected).
      next_execution: next.get(String(c.metadata?.name)) ?? null,
    }));
  });
  app.post(`${PREFIX}/namespaces/:namespace/checks/:check/execute`, (request, reply) => {
    const { namespace, check } = request.params as { namespace: string; check: string };
    if (!dash.v2Checks) return fail(reply, 'notFound', 'v2 check scheduling is not running here');
    const outcome = dash.v2Checks.execute(namespace, check, { reason: 'requested from the dashboard', creator: callerOf(request).username });
    if (!outcome.ok) return fail(reply, 'notFound', outcome.reason);
    return reply.code(202).send({ issued: outcome.issued });
  });
}
