import { ChannelService, channelKey, clusterChannelFor, leadershipFor, type ClusterChannel, type Leadership } from '../../cluster/index.js';
import { socketLimitsOf, type Settings } from '../../config/index.js';
import { bridgeConfigOf, type BridgeSender } from '../../bridge/index.js';
import { daemonEnvironment } from '../../config/index.js';
import { wireClient } from '../fleet.js';
import { sharedStoreDsn } from '../shared-store.js';
import { BRIDGE_API_KEY, resolveSecret } from '../secret-options.js';
import type { Service } from '../lifecycle.js';
import { buildStore, type DaemonStore } from './store.js';
import { buildExecution, type Execution } from './execution.js';
import { buildTransport, type DaemonTransport } from './transport.js';
import { buildHandling } from './handling.js';
import { buildBridge, type BridgeView } from './bridge.js';
import { receiveOwnKeepalive } from '../../keepalives/index.js';
import { buildServer } from './server.js';
import { buildApis } from './apis.js';
import { buildAgentd } from './agentd.js';
import { buildClient } from './client.js';
import { buildWatcher } from './watcher.js';
import type { Daemon, DaemonBase } from './base.js';

/** `run --role server`, and `both`: the server's services with the client's list in their middle. */
export async function composeServer(base: DaemonBase): Promise<Daemon> {
  const { role, flags, hub, lifecycle, logger } = base;
  const settings = hub.current();
  const isStopping = () => lifecycle.isStopping();
  // Servers sharing a store elect one to do the once-per-cluster work; one alone always does it.
  // Read before anything opens: a malformed DSN refuses the start.
  const dsn = sharedStoreDsn(flags, settings);
  // Read now too: an unreadable key file refuses the start before anything opens.
  const bridgeApiKey = resolveSecret(BRIDGE_API_KEY, { value: flags.bridgeApiKey, file: flags.bridgeApiKeyFile }, daemonEnvironment());
  const leadership = leadershipFor(dsn, { name: String(settings.client.name), pid: process.pid }, logger);
  // Check requests for Sensu Go agents connected to another server travel over the shared store's PostgreSQL.
  // Its messages are signed with a key kept in the shared store, read when the channel starts (after the store's start).
  const channel = clusterChannelFor(dsn, 'checkbridge_check_requests', logger, () => channelKey(store.store.resources));
  const channelService = new ChannelService(channel);
  const bridge = bridgeConfigOf(settings.raw.bridge, { bridgeUrl: flags.bridgeUrl, bridgeApiKey }, daemonEnvironment());

  const execution = buildExecution(base.stateDir, hub, logger);
  const store = await buildStore({ dsn, stateDir: base.stateDir, bridgeNamespace: bridge ? bridge.namespace : null }, hub, logger);
  const daemonTransport = buildTransport(role, flags, hub, logger);
  const { broker } = daemonTransport;
  const rehearse = flags.rehearsal !== false && daemonEnvironment().CHECKBRIDGE_REHEARSAL !== 'off';
  const handling = buildHandling({ hub, store, execution, broker, rehearse }, logger);
  const { sender, bridgeView, service: bridgeService } = buildBridge(bridge, store.store, logger);

  // The client role's services sit in the middle of the server's: started after handling, stopped before it.
  const local = role === 'both' ? composeLocalClient(base, settings, store, execution, daemonTransport) : { services: [], summary: () => ({}) };
  const { server, agentd, legacyApi, v2Api } = composeServerRole(base, { store, execution, daemonTransport, sender, bridgeView, leadership, channel, dsn });
  const { scheduling, keepalives, fleet, election } = server;
  const { publisher } = scheduling;
  const watcher = buildWatcher(base.sources, base.initial, hub, isStopping, logger);
  return {
    // Stopped in reverse: the watcher, the scheduler, the monitors and the broker's deliveries first; the store last.
    services: [
      store.service,
      store.intake,
      daemonTransport.service,
      channelService,
      election,
      bridgeService,
      execution.processes,
      handling,
      ...local.services,
      legacyApi,
      v2Api,
      agentd.service,
      ...(fleet ? [fleet] : []),
      daemonTransport.consuming,
      keepalives,
      scheduling,
      watcher.service,
    ],
    reload: watcher.reload,
    summary: () => ({
      transport: broker?.name ?? 'local',
      files: settings.files.length,
      checks: Object.keys(settings.checks).length,
      scheduled: publisher.scheduledChecks(),
      ...local.summary(),
      stateDir: base.stateDir,
    }),
  };
}

/** The client role run in the same process (`both`); over a broker its results and keepalives travel through it. */
function composeLocalClient(
  base: DaemonBase,
  settings: Settings,
  store: DaemonStore,
  execution: Execution,
  daemonTransport: DaemonTransport,
): { services: Service[]; summary: () => Record<string, unknown> } {
  const { hub, flags, lifecycle, logger } = base;
  const { transport, broker } = daemonTransport;
  const fleetClient = broker ? wireClient(broker, hub.current, logger) : null;
  const keepalive = fleetClient ? fleetClient.keepalive : receiveOwnKeepalive(store.store, store.intake, logger);
  const client = buildClient(
    {
      hub,
      flags,
      transport,
      execution,
      intake: fleetClient?.results ?? store.intake,
      keepalive,
      secrets: store.secrets.in(() => store.namespace()),
      maxMessageBytes: socketLimitsOf(settings).maxMessageBytes,
      isRunning: () => lifecycle.isRunning(),
    },
    logger,
  );
  return { services: client.services, summary: client.summary };
}

interface ServerRoleParts {
  readonly store: DaemonStore;
  readonly execution: Execution;
  readonly daemonTransport: DaemonTransport;
  readonly sender: BridgeSender | null;
  readonly bridgeView: BridgeView | null;
  readonly leadership: Leadership;
  readonly channel: ClusterChannel | null;
  readonly dsn: string | null;
}

/** The server role's own services: scheduling and monitors, the agent WebSocket, then the two APIs that read them. */
function composeServerRole(base: DaemonBase, parts: ServerRoleParts) {
  const { role, flags, hub, lifecycle, logger } = base;
  const { store, execution, sender, bridgeView, leadership, channel, dsn } = parts;
  const { transport, broker } = parts.daemonTransport;
  const isStopping = () => lifecycle.isStopping();
  const server = buildServer(
    {
      hub,
      store,
      transport,
      broker,
      sender,
      leadership,
      scheduling: dsn === null,
      isStopping,
      localClient: () => (role === 'both' ? String(hub.current().client.name) : null),
      channel,
    },
    logger,
  );
  const { scheduling, serverResults } = server;
  const { publisher, v2Checks } = scheduling;
  const agentd = buildAgentd({ hub, flags, store, stateDir: base.stateDir, scheduling }, logger);
  const { legacyApi, v2Api } = buildApis(
    {
      hub,
      flags,
      sources: base.sources,
      store,
      transport,
      leadership,
      publisher,
      v2Checks,
      serverResults,
      execution,
      bridgeView,
      stateDir: base.stateDir,
      agents: agentd.view,
    },
    logger,
  );
  return { server, agentd, legacyApi, v2Api };
}
