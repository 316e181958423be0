import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from '../v2/context.js';
import { fail, callerOf } from '../v2/context.js';
import { authorize } from '../../auth/index.js';
import { rbacView } from '../v2/rbac-store.js';
import { loadSettings, locateSetting, definitionOf } from '../../config/index.js';
import { checkTimeline } from './timeline.js';
import { PREFIX, param, type DashboardDeps } from './deps.js';
import { legacyNamespace } from '../../config/index.js';

const known = (dash: DashboardDeps, name: string) => Object.hasOwn(dash.settings().checks, name);

/** Checks with their source location, their timeline and their last result per client. */
export function registerCheckRoutes(app: FastifyInstance, deps: V2ApiDeps, dash: DashboardDeps): void {
  app.get(`${PREFIX}/checks`, () => {
    const settings = dash.settings();
    // Read afresh so a line number follows the file as edited, even while the running settings are older.
    const { files } = loadSettings(dash.sources);
    return Object.keys(settings.checks)
      .sort()
      .map((name) => {
        const check = definitionOf(settings, name);
        const where = locateSetting(files, ['checks', name], '');
        return {
          name,
          command: check.command ?? null,
          standalone: check.standalone === true,
          publish: check.publish !== false,
          interval: check.interval ?? null,
          cron: check.cron ?? null,
          subscribers: check.subscribers ?? [],
          subdue: check.subdue ?? null,
          handlers: check.handlers ?? (check.handler ? [check.handler] : []),
          file: where.file,
          line: where.line,
        };
      });
  });
  app.get(`${PREFIX}/checks/:check/timeline`, (request, reply) => {
    const name = (request.params as { check: string }).check;
    if (!known(dash, name)) return fail(reply, 'notFound', 'no such check');
    const hoursText = param(request.query, 'hours');
    const hours = /^[0-9]{1,3}$/.test(hoursText) ? Math.min(Math.max(Number(hoursText), 1), 168) : 24;
    return checkTimeline(dash.settings(), name, deps.clock.now(), hours);
  });
  app.get(`${PREFIX}/checks/:check/results`, (request, reply) => {
    const name = (request.params as { check: string }).check;
    // Every client's output of this check is event data: besides the route's `checks` right, the caller needs what
    // listing the events of the namespace legacy events live in needs (GET /api/core/v2/namespaces/<ns>/events).
    const caller = callerOf(request);
    const events = authorize(rbacView(deps.store.resources), caller.username, caller.groups, 'list', 'events', legacyNamespace(dash.settings()), null);
    if (!events.allowed) return fail(reply, 'forbidden', events.reason);
    return deps.store
      .listResults()
      .filter((r) => String(r.check.name) === name)
      .map((r) => ({
        client: r.client,
        status: Number(r.check.status),
        output: String(r.check.output ?? '').slice(0, 2000),
        executed: r.check.executed ?? null,
        history: r.history.map((h) => h.status),
      }));
  });
}
