import { systemClock } from '../../schedule/index.js';
import { randomUUID } from 'node:crypto';
import { deliverAdminPassword, AGENT } from './admin-password.js';
import { agentdListenerOf, agentdMaxMessageBytesOf, agentdRateOf, daemonEnvironment } from '../../config/index.js';
import { ensureAgentUser } from '../../auth/index.js';
import { AgentdServer, SessionRegistry } from '../../agentd/index.js';
import type { Scheduling } from '../../scheduling/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import { listenerFrom, startHttpListener } from '../listeners.js';
import { listenerHttps } from '../tls-options.js';
import type { DaemonStore } from './store.js';
import type { RunFlags } from './run-flags.js';
import type { SettingsHub } from './settings-hub.js';

export interface AgentdView {
  /** Connected agents now (for /health and /metrics). */
  connected(): number;
}

/** The agent WebSocket (:8081): Sensu Go agents connect, register their entities and send events to the one intake. */
export function buildAgentd(
  parts: { hub: SettingsHub; flags: RunFlags; store: DaemonStore; stateDir: string; scheduling: Scheduling },
  logger: Logger,
): { service: Service; view: AgentdView } {
  const { hub, flags } = parts;
  const { store, intake } = parts.store;
  const log = logger.child({ component: 'agentd' });
  let server: AgentdServer | null = null;
  const view: AgentdView = { connected: () => server?.sessions.count() ?? 0 };
  const service: Service = {
    name: 'agent WebSocket',
    async start() {
      // After the v2 API's start: the admin user is created first, on an empty store.
      await ensureAgentUser(store.resources, daemonEnvironment(), (user, password) =>
        deliverAdminPassword(user, password, parts.stateDir, logger, process.stderr.isTTY === true, AGENT),
      );
      const config = agentdListenerOf(hub.current());
      const https = listenerHttps('agent WebSocket', 'checkbridge.agentd.tls', config.tls, flags);
      server = new AgentdServer({
        https,
        sessions: new SessionRegistry(),
        resources: store.resources,
        store,
        intake,
        topics: intake.topics,
        checkRequests: parts.scheduling,
        legacyChecks: parts.scheduling.legacyChecks,
        settings: hub.current,
        logger: log,
        clock: systemClock,
        rate: () => agentdRateOf(hub.current()),
        backendId: store.resources.secret('backend-id', () => randomUUID()),
        maxMessageBytes: agentdMaxMessageBytesOf(hub.current()),
        entityRefusal: intake.entityGate.refusal,
        onRegistration: intake.topics.keepalive.publish,
      });
      const listen = listenerFrom('agentd', flags, config, { bind: '127.0.0.1', port: 8081 });
      await startHttpListener(server, 'agent WebSocket', listen, https !== null, logger);
    },
    stop: async () => void (await server?.close()),
  };
  return { service, view };
}
