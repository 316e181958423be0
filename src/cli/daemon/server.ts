import { monitorIntervalOf } from '../../config/index.js';
import { systemClock } from '../../schedule/index.js';
import type { Transport, WireTransport } from '../../transport/index.js';
import type { ClusterChannel, Leadership } from '../../cluster/index.js';
import { Fleet } from '../../fleet/index.js';
import { isV2Event } from '../../intake/index.js';
import { WireResults } from '../../client/index.js';
import { Keepalives } from '../../keepalives/index.js';
import { Scheduling } from '../../scheduling/index.js';
import type { BridgeSender } from '../../bridge/index.js';
import { withWithheldSecretsLogged } from '../../secrets/index.js';
import type { Logger } from '../../log.js';
import type { ResultIntake } from '../../execute/index.js';
import type { Service } from '../lifecycle.js';
import type { DaemonStore } from './store.js';
import type { SettingsHub } from './settings-hub.js';

export interface ServerParts {
  readonly hub: SettingsHub;
  readonly store: DaemonStore;
  readonly transport: Transport;
  readonly broker: WireTransport | null;
  readonly sender: BridgeSender | null;
  readonly leadership: Leadership;
  /** Whether this server schedules subscription checks itself (not when servers share a store). */
  readonly scheduling: boolean;
  readonly isStopping: () => boolean;
  /** The in-process client's name, or null when this process runs no client role. */
  readonly localClient: () => string | null;
  /** Check requests for agents connected to another server sharing the store. */
  readonly channel: ClusterChannel | null;
}

/** Except an agent's keepalive or TTL result: the server's own, into the local intake, where no broker message can forge it. */
function agentResultsLocal(store: DaemonStore['store'], intake: ResultIntake, serverResults: ResultIntake): ResultIntake {
  return { submit: (result) => (result.fromServer && store.getClient(result.client)?.entity_class === 'agent' ? intake : serverResults).submit(result) };
}

/**
 * The server role: scheduling, the keepalive and TTL monitors, results from the broker, and the once-per-cluster work
 * done while elected (the election is stopped late, the scheduler and the monitors early).
 */
export function buildServer(parts: ServerParts, logger: Logger) {
  const { hub, broker, sender, leadership, isStopping } = parts;
  const { store, intake } = parts.store;
  const clients = () => store.listClients().filter((c) => !c.invalidated);
  // Over a broker, a remote legacy client runs a check without its secrets: said once per check and client.
  const transport = broker
    ? withWithheldSecretsLogged(parts.transport, { clients, local: parts.localClient, namespace: parts.store.namespace, secrets: parts.store.remoteSecrets })
    : parts.transport;
  // The server's own results — the monitors' and the legacy API's POST /results — travel through the broker too.
  const serverResults = broker ? new WireResults(broker, logger) : intake;
  const monitorResults = broker ? agentResultsLocal(store, intake, serverResults) : intake;
  // A processed legacy event may have added to the bridge's outbox (v2 API events are not bridged).
  intake.topics.committed.subscribe((emitted) => void (isV2Event(emitted) || sender?.kick()));
  const leading = () => leadership.isLeader();
  sender?.fence(leading); // each once-per-cluster action asks, as it goes out, whether leadership is still confirmed
  const scheduling = new Scheduling({
    clock: systemClock,
    store,
    transport,
    clients,
    namespace: parts.store.namespace,
    logger,
    scheduling: parts.scheduling,
    leading,
    agentSecrets: parts.store.remoteSecrets,
    channel: parts.channel,
  });
  // Over a broker, nothing is scheduled until it is connected (legacy bootstraps then).
  if (broker) scheduling.brokerAway(true);
  hub.onApply((s) => scheduling.apply(s));
  const mayMonitor = () => !((broker && !broker.connected()) || !leadership.isLeader());
  const keepalives = new Keepalives({
    store,
    events: parts.store.events,
    intake,
    settings: hub.current,
    results: monitorResults,
    logger,
    clock: systemClock,
    monitorMs: monitorIntervalOf(hub.current()) * 1000,
    mayMonitor,
    leading,
  });
  let fleet: Fleet | null = null;
  if (broker) {
    // Legacy pause and resume: while the broker is away, no check requests and no monitor results.
    broker.onDisconnected(() => {
      scheduling.brokerAway(true);
      logger.warn('transport is not connected: check requests and monitors paused until it is');
    });
    broker.onConnected(() => {
      if (isStopping()) return;
      scheduling.brokerAway(false);
      keepalives.reconnected();
    });
    fleet = new Fleet({ transport: broker, store, settings: hub.current, intake, logger, clock: systemClock });
  }
  const election: Service = {
    name: 'leadership',
    async start() {
      // The once-per-cluster work: subscription-check scheduling, the keepalive and TTL monitors, bridge sending.
      leadership.start((leader) => {
        if (isStopping()) return;
        scheduling.lead(leader);
        if (!leader) {
          // Lost: nothing more of it runs here, before anyone else could be elected.
          keepalives.follow();
          sender?.pause();
          return;
        }
        sender?.start();
        keepalives.lead();
      });
    },
    // Last of the once-per-cluster work stopped: the lock goes, and another server may take over at once.
    stop: () => leadership.close(),
  };
  return { scheduling, keepalives, fleet, serverResults, election };
}
