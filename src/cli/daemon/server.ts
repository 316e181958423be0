import { redact, type Settings, monitorIntervalOf } from '../../config/index.js';
import { systemClock } from '../../schedule/index.js';
import type { Transport, WireTransport } from '../../transport/index.js';
import type { Leadership } from '../../cluster/index.js';
import { consumeFleet } from '../../fleet/index.js';
import { isV2Event } from '../../intake/index.js';
import { WireResults } from '../../client/index.js';
import { LEGACY_VERSION } from '../../legacy-version.js';
import { receiveKeepalive, monitorKeepalives, monitorTtl } from '../../keepalives/index.js';
import { CheckRequestPublisher } from '../../scheduling/index.js';
import { CheckRequestTargets, LegacyAgentChecks, V2CheckScheduler, legacyTargets } from '../../scheduling/index.js';
import { V2TtlMonitor } from '../../keepalives/index.js';
import type { HandlerPipeline } from '../../handling/index.js';
import type { BridgeSender } from '../../bridge/index.js';
import { withWithheldSecretsLogged } from '../../secrets/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import type { DaemonStore } from './store.js';
import type { SettingsHub } from './settings-hub.js';

export interface ServerParts {
  readonly hub: SettingsHub;
  readonly store: DaemonStore;
  readonly transport: Transport;
  readonly wire: WireTransport | null;
  readonly handlers: HandlerPipeline;
  readonly sender: BridgeSender | null;
  readonly leadership: Leadership;
  /** Whether this server schedules subscription checks itself (not when servers share a store). */
  readonly scheduling: boolean;
  readonly isStopping: () => boolean;
  /** The in-process client's name, or null when this process runs no client role. */
  readonly localClient: () => string | null;
}

/**
 * The server role: the check-request publisher, the keepalive and TTL monitors, results from the broker, and the
 * once-per-cluster work done while elected. Two services: the election (stopped late) and the scheduler (stopped early).
 */
export function buildServer(parts: ServerParts, logger: Logger) {
  const { hub, wire, handlers, sender, leadership, isStopping } = parts;
  const { store, intake } = parts.store;
  const registry = { all: () => store.listClients().filter((c) => !c.invalidated) };
  // Over a broker, a remote legacy client runs a check without its secrets: said once per check and client.
  const transport = wire ? withWithheldSecretsLogged(parts.transport, { clients: registry.all, local: parts.localClient, namespace: parts.store.namespace, secrets: parts.store.remoteSecrets }) : parts.transport;
  // The server's own results — the monitors' and the legacy API's POST /results — travel through the broker too (reference §2.5).
  const serverResults = wire ? new WireResults(wire, logger) : intake;
  // A processed legacy event may have added to the bridge's outbox (v2 API events are not bridged).
  intake.onEvent((emitted) => void (isV2Event(emitted) || sender?.kick()));
  // v2 CheckConfigs go to every kind of subscriber: legacy clients here, Sensu Go agents when their service registers.
  const targets = new CheckRequestTargets();
  targets.register(legacyTargets({ transport, clients: registry.all, namespace: parts.store.namespace, now: Date.now }));
  // conf.d checks reach the agents of their subscriptions too, translated once per configuration load.
  const legacyChecks = new LegacyAgentChecks({ targets, logger, client: (name) => store.getClient(name) });
  const publisher = new CheckRequestPublisher({ clock: systemClock, transport, registry, logger, scheduling: parts.scheduling, leading: () => leadership.isLeader(), agents: legacyChecks });
  // Over a broker, nothing is scheduled until it is connected (legacy bootstraps then, reference §1).
  if (wire) publisher.pause('broker away');
  const v2Checks = new V2CheckScheduler({ clock: systemClock, resources: store.resources, targets, logger, scheduling: parts.scheduling, leading: () => leadership.isLeader() });
  hub.onApply((s) => publisher.apply(s));
  // Check TTLs of v2 events (agents', the v2 API's): watched on every server, fired by the elected one.
  const ttl = new V2TtlMonitor({ store, events: parts.store.events, intake, logger, now: Date.now });
  intake.onEvent((emitted) => ttl.observe(emitted));
  const monitorMs = monitorIntervalOf(hub.current()) * 1000;
  let monitors: NodeJS.Timeout | undefined;
  // The first pass one interval after start-up or a reconnection, when clients have had the time to send keepalives.
  const startMonitors = () => {
    clearInterval(monitors);
    monitors = setInterval(() => {
      if ((wire && !wire.connected()) || !leadership.isLeader()) return;
      void monitorKeepalives(store, hub.current(), serverResults, Date.now());
      void monitorTtl(store, serverResults, Date.now());
    }, monitorMs);
  };
  if (wire) {
    // Legacy pause and resume (reference §2.7): while the broker is away, no check requests and no monitor results.
    wire.onDisconnected(() => {
      publisher.pause('broker away');
      logger.warn('transport is not connected: check requests and monitors paused until it is');
    });
    wire.onConnected(() => {
      if (isStopping()) return;
      publisher.resume('broker away');
      if (monitors) startMonitors();
    });
    consumeFleet({ transport: wire, store, settings: hub.current, intake, logger, now: Date.now, onRegistration: (event) => handlers.handle(event) });
  }
  const election: Service = {
    name: 'leadership',
    async start() {
      // The once-per-cluster work: subscription-check scheduling, the keepalive and TTL monitors, bridge sending.
      leadership.start((leader) => {
        if (isStopping()) return;
        if (!leader) {
          // Lost: nothing more of it runs here, before anyone else could be elected.
          publisher.pause('not elected');
          v2Checks.pause('not elected');
          clearInterval(monitors);
          monitors = undefined;
          ttl.stop();
          sender?.pause();
          return;
        }
        publisher.resume('not elected');
        v2Checks.resume('not elected');
        sender?.start();
        startMonitors();
        void ttl.start().catch((error) => logger.error({ err: error }, 'check TTLs of stored v2 events not read'));
      });
    },
    // Last of the once-per-cluster work stopped: the lock goes, and another server may take over at once.
    stop: () => leadership.close(),
  };
  const scheduler: Service = {
    name: 'scheduler',
    start: async () => v2Checks.start(),
    async stop() {
      publisher.stop();
      v2Checks.stop();
      ttl.stop();
      clearInterval(monitors);
    },
  };
  return { publisher, v2Checks, targets, legacyChecks, serverResults, election, scheduler };
}

/** In one process, the client role's keepalive is received directly: its settings redacted, with version and timestamp (reference §10.9). */
export function receiveOwnKeepalive(store: DaemonStore['store'], handlers: HandlerPipeline, logger: Logger): (s: Settings) => void {
  return (s) => {
    const local = s.client as Record<string, unknown>;
    const payload = { ...(redact(local, (local.redact as string[] | undefined) ?? undefined) as Record<string, unknown>), version: LEGACY_VERSION, timestamp: Math.floor(Date.now() / 1000) };
    const outcome = receiveKeepalive(store, s, payload, Date.now());
    if (!outcome.accepted) logger.warn({ client: local.name }, outcome.reason);
    else if (outcome.registration) {
      logger.info({ client: local.name, event: outcome.registration.id }, 'new client registration');
      handlers.handle(outcome.registration);
    }
  };
}
