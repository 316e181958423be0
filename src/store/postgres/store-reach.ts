// What a daemon's PostgreSQL store knows of PostgreSQL's reach without asking it: its listening connection (other
// servers' changes, the probes), its units' waits and its connections' losses. `/health` and the doors read it.
import type { Logger } from 'pino';
import { CheckbridgeError } from '../../errors.js';
import { poolConfigOf, type PgEnvironment } from './connection.js';
import { ChangeListener } from './change-listener.js';
import type { LanedPostgres } from './laned-connection.js';
import { ReachProbe, SILENT_MS } from './reach-probe.js';
import type { SharedResourceTables } from './shared-resources.js';
import type { UnitScheduler } from './unit-scheduler.js';

export class StoreReach {
  private listener: ChangeListener | null = null;

  constructor(
    private readonly lanes: LanedPostgres,
    private readonly units: UnitScheduler,
    private readonly resources: SharedResourceTables,
    /** Where the listening connection goes (the store's own DSN and variables). */
    private readonly where: { dsn: string; env: PgEnvironment },
  ) {}

  /** Whether this is a daemon's store: it listens for other servers' changes (from `listen` on). */
  get listening(): boolean {
    return this.listener !== null;
  }

  /** Caches on: configuration reads come from memory, dropped by each change any server commits (a daemon's store). */
  async listen(logger: Logger): Promise<void> {
    if (this.listener) return;
    const { max: _max, ...connection } = poolConfigOf(this.where.dsn, 1, this.where.env);
    const reach = new ReachProbe(this.where.dsn, this.where.env);
    this.listener = new ChangeListener(connection, this.resources, logger.child({ component: 'store' }), reach);
    // A statement blocking the thread is given up once PostgreSQL has not answered the probe for as long.
    this.lanes.main.giveUp = (waited) => (waited > SILENT_MS ? reach.silent : null);
    await this.listener.start();
  }

  /** Degraded while a unit waits too long, or while a daemon's store does not hear other servers' changes. */
  alarm(): string | null {
    const slow = this.units.waiting();
    if (slow) return `DEGRADED: ${slow}; the doors push back until it answers`;
    const away = this.listener ? (this.listener.notListening ?? this.resources.untrusted) : null;
    return away === null ? null : `DEGRADED: not listening for other servers' changes (${away}); configuration read from PostgreSQL`;
  }

  /** A daemon's store's problem, from what it knows ('' for none); null when not listening (not a daemon's: ask PostgreSQL). */
  problem(): string | null {
    if (!this.listener) return null;
    const away = this.outOfReach() ?? this.lanes.main.lost ?? this.listener.notListening;
    return away === null ? '' : new CheckbridgeError('CB_STORE_UNAVAILABLE', away).message;
  }

  /** Why PostgreSQL counts as out of reach (a unit stuck waiting, a connection lost, the probe silent), or null; nothing asked. */
  outOfReach(): string | null {
    return this.units.waiting() ?? this.lanes.unitLost ?? this.listener?.silent ?? null;
  }

  close(): void {
    void this.listener?.close();
  }
}
