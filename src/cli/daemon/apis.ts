import { transportInfo, type Transport } from '../../transport/index.js';
import type { ResultIntake } from '../../execute/index.js';
import { legacyApiListenerOf, v2ApiListenerOf, legacyNamespace } from '../../config/index.js';
import type { Leadership } from '../../cluster/index.js';
import { buildLegacyApi } from '../../api/index.js';
import { buildV2Api, ServerFigures, serverMetrics } from '../../api/index.js';
import { TokenIssuer, newSigningKey } from '../../auth/index.js';
import { ensureAdmin } from '../../auth/index.js';
import type { CheckRequestPublisher, V2CheckScheduler } from '../../scheduling/index.js';
import { daemonEnvironment } from '../../config/index.js';
import type { ConfigSources } from '../../config/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import { listenerFrom, startHttpListener } from '../listeners.js';
import { listenerHttps } from '../tls-options.js';
import type { Execution } from './execution.js';
import type { BridgeView } from './bridge.js';
import type { AgentdView } from './agentd.js';
import type { DaemonStore } from './store.js';
import type { RunFlags } from './run-flags.js';
import type { SettingsHub } from './settings-hub.js';
import { deliverAdminPassword } from './admin-password.js';
import { systemClock } from '../../schedule/index.js';

export interface ApiParts {
  readonly hub: SettingsHub;
  readonly flags: RunFlags;
  readonly sources: ConfigSources;
  readonly store: DaemonStore;
  readonly transport: Transport;
  readonly leadership: Leadership;
  readonly publisher: CheckRequestPublisher;
  /** v2 CheckConfig scheduling: `execute` for the ad hoc route, next executions for the dashboard. */
  readonly v2Checks: V2CheckScheduler;
  readonly serverResults: ResultIntake;
  readonly execution: Execution;
  readonly bridgeView: BridgeView | null;
  readonly stateDir: string;
  readonly agents: AgentdView;
}

/** The legacy API (:4567) and the v2 API with the dashboard (:8080), each a service that listens at start. */
export function buildApis(parts: ApiParts, logger: Logger): { legacyApi: Service; v2Api: Service } {
  const { hub, flags, sources, transport, leadership, publisher, serverResults, bridgeView, agents } = parts;
  const { store, intake, events } = parts.store;
  const spawner = parts.execution.processes.spawner;
  const settings = hub.current();
  let api: ReturnType<typeof buildLegacyApi> | null = null;
  let v2Api: ReturnType<typeof buildV2Api> | null = null;
  const legacyApi: Service = {
    name: 'legacy API',
    async start() {
      const apiConfig = legacyApiListenerOf(settings);
      const apiHttps = listenerHttps('legacy API', 'api.tls', apiConfig.tls, flags);
      api = buildLegacyApi({
        https: apiHttps,
        store,
        events,
        settings: hub.current,
        intake,
        results: serverResults,
        logger,
        clock: systemClock,
        bridge: bridgeView,
        transport: () => transportInfo(transport),
        servers: () => leadership.servers(),
        requestCheck: (name, subs, meta) => publisher.requestNow(name, subs, meta),
      });
      const apiListen = listenerFrom('api', flags, apiConfig, { bind: '127.0.0.1', port: 4567 });
      await startHttpListener(api, 'legacy API', apiListen, apiHttps !== null, logger);
    },
    stop: async () => void (await api?.close()),
  };
  const v2Service: Service = {
    name: 'v2 API',
    async start() {
      await ensureAdmin(store.resources, daemonEnvironment(), (user, password) => deliverAdminPassword(user, password, parts.stateDir, logger));
      const v2Config = v2ApiListenerOf(settings);
      const v2Https = listenerHttps('v2 API', 'checkbridge.v2_api.tls', v2Config.tls, flags);
      // Started after the legacy API in the list: the dashboard serves through it.
      const legacy = api!;
      const processMetrics = serverMetrics();
      intake.topics.committed.subscribe(processMetrics.eventProcessed);
      const figures = new ServerFigures({ agents, bridge: bridgeView, process: processMetrics });
      v2Api = buildV2Api({
        https: v2Https,
        store,
        events,
        postgres: events,
        entityGate: intake.entityGate.refusal,
        legacyNamespace: () => legacyNamespace(hub.current()),
        tokens: new TokenIssuer(store.resources.secret('jwt-hs256', newSigningKey)),
        logger,
        clock: systemClock,
        spawn: spawner.spawn,
        annotations: figures.annotations,
        metrics: figures.metrics,
        onEntityWritten: intake.topics.entityWritten,
        executeCheck: (namespace, check, options) => parts.v2Checks.execute(namespace, check, options),
        intake,
        dashboard: { legacy, settings: hub.current, sources, bridge: bridgeView, onEvent: intake.topics.committed.subscribe, v2Checks: parts.v2Checks },
      });
      const v2Listen = listenerFrom('v2', flags, v2Config, { bind: '127.0.0.1', port: 8080 });
      await startHttpListener(v2Api, 'v2 API', v2Listen, v2Https !== null, logger);
    },
    stop: async () => void (await v2Api?.close()),
  };
  return { legacyApi, v2Api: v2Service };
}
