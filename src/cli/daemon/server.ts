import { monitorIntervalOf } from '../../config/index.js';
import { systemClock } from '../../schedule/index.js';
import type { Transport, WireTransport } from '../../transport/index.js';
import type { ClusterChannel, Leadership } from '../../cluster/index.js';
import { Fleet } from '../../fleet/index.js';
import { kickOnLegacyEvents } from '../../intake/index.js';
import { WireResults } from '../../client/index.js';
import { liveClients } from '../../store/index.js';
import { Keepalives, MonitorResults } from '../../keepalives/index.js';
import { DutyGate, Scheduling, ServerDuties } from '../../scheduling/index.js';
import type { BridgeSender } from '../../bridge/index.js';
import { withWithheldSecretsLogged } from '../../secrets/index.js';
import type { Logger } from '../../log.js';
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

/**
 * The server role: scheduling, the keepalive and TTL monitors, results from the broker, and the once-per-cluster work
 * done while elected (the election is stopped late, the scheduler and the monitors early).
 */
export function buildServer(parts: ServerParts, logger: Logger) {
  const { hub, broker, sender, leadership, isStopping } = parts;
  const { store, intake } = parts.store;
  const clients = () => liveClients(store);
  // Over a broker, a remote legacy client runs a check without its secrets: said once per check and client.
  const transport = broker
    ? withWithheldSecretsLogged(parts.transport, { clients, local: parts.localClient, namespace: parts.store.namespace, secrets: parts.store.remoteSecrets })
    : parts.transport;
  // The server's own results — the monitors' and the legacy API's POST /results — travel through the broker too.
  const serverResults = broker ? new WireResults(broker, logger) : intake;
  const monitorResults = broker ? new MonitorResults(store, intake, serverResults) : intake;
  kickOnLegacyEvents(intake.topics, sender);
  const gate = new DutyGate(leadership, broker);
  const { leading } = gate;
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
  hub.onApply((s) => scheduling.apply(s));
  const keepalives = new Keepalives({
    store,
    events: parts.store.events,
    intake,
    settings: hub.current,
    results: monitorResults,
    logger,
    clock: systemClock,
    monitorMs: monitorIntervalOf(hub.current()) * 1000,
    mayMonitor: gate.mayMonitor,
    leading,
  });
  // The election switches the once-per-cluster work; over a broker, its loss and return pause and resume it.
  const election = new ServerDuties({ leadership, broker, scheduling, keepalives, sender, isStopping, logger });
  const fleet = broker ? new Fleet({ transport: broker, store, settings: hub.current, intake, logger, clock: systemClock }) : null;
  return { scheduling, keepalives, fleet, serverResults, election };
}
