import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { systemClock, type Clock } from '../schedule/index.js';
import type { Transport } from '../transport/index.js';
import type { StateStore } from '../store/index.js';
import type { SessionRegistry } from '../agentd/index.js';
import type { ClusterChannel } from '../cluster/index.js';
import type { RemoteSecrets } from '../secrets/index.js';
import { FailureReport, type Service } from '../service.js';
import { CheckRequestPublisher } from './check-request-publisher.js';
import { CheckRequestTargets } from './check-request-targets.js';
import { legacyTargets } from './legacy-check-targets.js';
import { LegacyAgentChecks } from './legacy-agent-checks.js';
import { V2CheckScheduler } from './v2-check-scheduler.js';
import { connectedAgents } from './agent-targets.js';

export interface SchedulingDeps {
  readonly clock: Clock;
  readonly store: StateStore;
  /** Where legacy clients get their check requests (their secrets withheld over a broker). */
  readonly transport: Transport;
  /** The legacy client registry: client records, as the store reads them. */
  readonly clients: () => Record<string, unknown>[];
  readonly namespace: () => string;
  readonly logger: Logger;
  /** Whether this server schedules subscription checks itself (not when servers share a store). */
  readonly scheduling: boolean;
  readonly leading: () => boolean;
  /** What agents get of their checks' secrets (the values over mutual TLS only). */
  readonly agentSecrets?: RemoteSecrets;
  /** With servers sharing a store: check requests for agents connected to another server travel over it. */
  readonly channel?: ClusterChannel | null;
}

/**
 * conf.d checks (the legacy publisher) and v2 CheckConfigs (the v2 scheduler), to every kind of subscriber: legacy
 * clients here, Sensu Go agents once agentd registers them.
 */
export class Scheduling implements Service {
  readonly name = 'scheduler';
  readonly targets = new CheckRequestTargets();
  readonly legacyChecks: LegacyAgentChecks;
  readonly publisher: CheckRequestPublisher;
  readonly v2Checks: V2CheckScheduler;
  private readonly failures = new FailureReport();
  private readonly logger: Logger;

  constructor(private readonly deps: SchedulingDeps) {
    const { clock, store, transport, logger, scheduling, leading } = deps;
    this.logger = logger;
    const { targets } = this;
    targets.register(legacyTargets({ transport, clients: deps.clients, namespace: deps.namespace, clock: systemClock }));
    // conf.d checks reach the agents of their subscriptions too, translated once per configuration load.
    this.legacyChecks = new LegacyAgentChecks({ targets, logger, client: (name) => store.getClient(name) });
    this.publisher = new CheckRequestPublisher({ clock, transport, registry: { all: deps.clients }, logger, scheduling, leading, agents: this.legacyChecks });
    this.v2Checks = new V2CheckScheduler({ clock, resources: store.resources, targets, logger, scheduling, leading });
  }

  onFailure(report: (error: Error) => void): void {
    this.failures.listen(report);
  }

  /** A new configuration: conf.d checks added, changed and removed. */
  apply(settings: Settings): void {
    this.publisher.apply(settings);
  }

  /** Elected or not: the once-per-cluster scheduling runs here only while elected. */
  lead(leader: boolean): void {
    if (leader) {
      this.publisher.resume('not elected');
      this.v2Checks.resume('not elected');
    } else {
      this.publisher.pause('not elected');
      this.v2Checks.pause('not elected');
    }
  }

  /** The broker away or back: legacy clients get no check requests meanwhile. */
  brokerAway(away: boolean): void {
    if (away) this.publisher.pause('broker away');
    else this.publisher.resume('broker away');
  }

  /** agentd's sessions as subscribers (with the secrets and channel of the deps unless named); returns how to take them away again. */
  registerAgents(sessions: SessionRegistry, secrets?: RemoteSecrets, channel?: ClusterChannel | null): () => void {
    const delivery = secrets ?? this.deps.agentSecrets;
    if (!delivery) throw new Error('the scheduler has no secrets delivery for agents');
    const agents = connectedAgents(sessions, delivery, channel ?? this.deps.channel ?? null, this.logger);
    const unregister = this.targets.register(agents);
    return () => (unregister(), agents.close());
  }

  async start(): Promise<void> {
    this.v2Checks.start();
  }

  async stop(): Promise<void> {
    this.publisher.stop();
    this.v2Checks.stop();
  }
}
