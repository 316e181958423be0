import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { ResultIntake } from '../execute/index.js';
import type { StateStore, V2EventStore } from '../store/index.js';
import type { EventIntake, IntakeTopics } from '../intake/index.js';
import { FailureReport, type Service } from '../service.js';
import { monitorKeepalives, monitorTtl } from './keepalives.js';
import { V2TtlMonitor } from './v2-ttl.js';
import type { ReadClock } from '../schedule/index.js';

export interface KeepalivesDeps {
  readonly store: StateStore;
  readonly events: V2EventStore;
  /** v2 TTLs are watched on the intake's committed events. */
  readonly intake: EventIntake & { readonly topics: Pick<IntakeTopics, 'committed'> };
  readonly settings: () => Settings;
  /** Where the monitors' results go: the intake, or the broker in front of it. */
  readonly results: ResultIntake;
  readonly logger: Logger;
  readonly clock: ReadClock;
  readonly monitorMs: number;
  /** Whether a monitors' pass may run now: elected, and the broker (if any) connected. */
  readonly mayMonitor: () => boolean;
  /** Whether leadership is confirmed now: asked as each v2 TTL failure goes out. */
  readonly leading?: () => boolean;
}

/**
 * Legacy keepalives' and check TTLs' monitors, and the TTLs of v2 checks (agents', the v2 API's): watched on every
 * server, fired only by the elected one.
 */
export class Keepalives implements Service {
  readonly name = 'keepalive monitors';
  private readonly ttl: V2TtlMonitor;
  private monitors: NodeJS.Timeout | undefined;
  private readonly failures = new FailureReport();

  constructor(private readonly deps: KeepalivesDeps) {
    const { store, events, intake, logger, clock, leading } = deps;
    this.ttl = new V2TtlMonitor({ store, events, intake, logger, clock, leading });
    intake.topics.committed.subscribe((emitted) => this.ttl.observe(emitted));
  }

  onFailure(report: (error: Error) => void): void {
    this.failures.listen(report);
  }

  /** Elected: the monitors run here, and the TTLs of stored v2 events are read. */
  lead(): void {
    this.startMonitors();
    void this.ttl.start().catch((error) => this.deps.logger.error({ err: error }, 'check TTLs of stored v2 events not read'));
  }

  /** Not elected: nothing of it runs here, before anyone else could be elected. */
  follow(): void {
    clearInterval(this.monitors);
    this.monitors = undefined;
    this.ttl.stop();
  }

  /** The broker is back: the monitors' first pass one interval later, when clients have had the time to send keepalives. */
  reconnected(): void {
    if (this.monitors) this.startMonitors();
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    this.ttl.stop();
    clearInterval(this.monitors);
  }

  // The first pass one interval after start-up or a reconnection, when clients have had the time to send keepalives.
  private startMonitors(): void {
    const { store, settings, results, clock, mayMonitor } = this.deps;
    clearInterval(this.monitors);
    this.monitors = setInterval(() => {
      if (!mayMonitor()) return;
      // A pass the store cannot answer (PostgreSQL out of reach) is logged, and the next one tries again.
      const failed = (what: string) => (error: unknown) => this.deps.logger.warn({ err: (error as Error).message }, `${what} not checked this pass`);
      void monitorKeepalives(store, settings(), results, clock.now()).catch(failed('keepalives'));
      void monitorTtl(store, results, clock.now()).catch(failed('check TTLs'));
    }, this.deps.monitorMs);
  }
}
