// The store's two PostgreSQL connections as one SqlDatabase: while a group commit's unit of work runs, every statement
// goes to the unit's connection (its open transaction); otherwise to the other one, so that what runs while a unit
// awaits its round trips never lands in the unit's transaction.
import { CheckbridgeError } from '../../errors.js';
import type { SqlDatabase, SqlStatement } from '../sql/database.js';
import type { SyncPostgres } from './sync-client.js';
import { UnitPostgres } from './unit-connection.js';
import { bind, toPositional } from './placeholders.js';

/**
 * Where a unit's connection runs: `awaited` ones only ever await (on the main thread, in a daemon), `blocking` ones
 * let a read the unit did not name block for its answer (in a worker thread: units of legacy results, which may claim
 * result ids or consume silences inside).
 */
export type UnitKind = 'awaited' | 'blocking';

export class LanedPostgres implements SqlDatabase {
  private readonly unitLanes: Record<UnitKind, (UnitPostgres | undefined)[]>;
  private readLane: UnitPostgres | undefined;
  private current: SyncPostgres;

  constructor(
    readonly main: SyncPostgres,
    /** Opens a unit's connection, the first time a unit of its kind runs on it (a command that never commits a group opens none). */
    private readonly openUnit: (kind: UnitKind) => UnitPostgres,
    /** Why PostgreSQL counts as out of reach now (a unit stuck waiting), or null: the other lane then refuses at once. */
    private readonly unreachable: () => string | null = () => null,
    /** How many units may be in flight together, each on a connection of its own. */
    readonly unitLaneCount = 1,
  ) {
    this.current = main;
    this.unitLanes = { awaited: new Array<UnitPostgres | undefined>(unitLaneCount), blocking: new Array<UnitPostgres | undefined>(unitLaneCount) };
  }

  /** The unit connection `index` (0 to unitLaneCount - 1) of `kind`; the first asked for opens those of its kind, connecting meanwhile. */
  unit(index = 0, kind: UnitKind = 'awaited'): UnitPostgres {
    const lanes = this.unitLanes[kind];
    if (lanes[index] === undefined) for (let i = 0; i < this.unitLaneCount; i++) if (lanes[i] === undefined) (lanes[i] = this.openUnit(kind)).warm();
    return lanes[index]!;
  }

  /**
   * The connection of reads awaited without blocking (a door's reads before it answers, reads ahead), opened the first
   * time: on the other lane they would queue ahead of the statements that block the thread.
   */
  reader(): UnitPostgres {
    if (this.readLane === undefined) (this.readLane = this.openUnit('awaited')).warm();
    return this.readLane;
  }

  /** A read awaited on the reader connection (the API's events and entities), refused at once while PostgreSQL is away. */
  readonly readRows = async (sql: string, params: readonly unknown[]): Promise<{ data: string }[]> => {
    const positional = toPositional(sql);
    const { rows } = await this.checked(this)
      .reader()
      .requestAsync({ sql: positional.text, params: bind(positional, params) });
    return rows as { data: string }[];
  };

  /** Why a unit's connection is lost now, or null (the other one waits a moment for its own reconnection). */
  get unitLost(): string | null {
    for (const lane of [...this.unitLanes.awaited, ...this.unitLanes.blocking]) if (lane?.lost) return lane.lost;
    return null;
  }

  /** The connection statements go to now. */
  get lane(): SyncPostgres {
    return this.current;
  }

  /** Runs `fn` with every statement on the unit connection `lane`. */
  onUnitLane<T>(lane: UnitPostgres, fn: () => T): T {
    const before = this.current;
    this.current = lane;
    try {
      return fn();
    } finally {
      this.current = before;
    }
  }

  prepare(sql: string): SqlStatement {
    const main = this.main.prepare(sql);
    const onLanes = new Map<SyncPostgres, SqlStatement>();
    const onLane = (lane: SyncPostgres) => onLanes.get(lane) ?? onLanes.set(lane, lane.prepare(sql)).get(lane)!;
    const pick = () => (this.current === this.main ? this.checked(main) : onLane(this.current));
    return {
      get: (...params) => pick().get(...params),
      all: (...params) => pick().all(...params),
      run: (...params) => pick().run(...params),
    };
  }

  transaction<T>(fn: () => T): () => T {
    return () => (this.current === this.main && !this.main.inTransaction ? this.checked(this.main) : this.current).transaction(fn)();
  }

  /** `target` on the other lane, unless PostgreSQL is out of reach: then a statement would hold the thread, it is refused. */
  private checked<T>(target: T): T {
    const away = this.unreachable();
    if (away !== null) throw new CheckbridgeError('CB_STORE_UNAVAILABLE', away);
    return target;
  }

  get inTransaction(): boolean {
    return this.current.inTransaction;
  }

  get open(): boolean {
    return this.main.open;
  }

  get name(): string {
    return this.main.name;
  }

  close(): void {
    for (const lane of [...this.unitLanes.awaited, ...this.unitLanes.blocking, this.readLane]) lane?.close();
    this.main.close();
  }
}
