import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from '../v2/context.js';
import { registerStatic, DEFAULT_WEB_ROOT } from './static.js';
import { registerStream } from './stream.js';
import { registerLegacyForward } from './legacy-forward.js';
import { registerCheckRoutes } from './checks.js';
import { registerV2CheckRoutes } from './v2-checks.js';
import { registerConfigRoutes } from './config.js';
import { registerBridgeHistory } from './bridge-history.js';
import { registerRehearsal } from './rehearsal.js';
import { openEvents, queryEvents } from './events.js';
import { PREFIX, type DashboardDeps } from './deps.js';
import { legacyNamespace } from '../../config/index.js';

export type { DashboardDeps } from './deps.js';

/** The built-in dashboard: its page at `/` (anonymous) and the authenticated `/api/checkbridge/v1` routes it reads. */
export function registerDashboard(app: FastifyInstance, deps: V2ApiDeps, dash: DashboardDeps): void {
  registerStatic(app, dash.webRoot ?? DEFAULT_WEB_ROOT);
  const changed = registerStream(app);
  dash.onEvent(changed);
  registerLegacyForward(app, dash, changed);
  registerCheckRoutes(app, deps, dash);
  registerV2CheckRoutes(app, deps, dash);
  registerConfigRoutes(app, deps, dash);
  registerBridgeHistory(app, dash.bridge, deps.clock);
  registerRehearsal(app, deps);
  app.get(`${PREFIX}/events`, (request) => queryEvents(openEvents(deps.store, legacyNamespace(dash.settings()), deps.clock.now()), request.query));
}
