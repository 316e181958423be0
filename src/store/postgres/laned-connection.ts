// The store's two PostgreSQL connections as one SqlDatabase: while a group commit's unit of work runs, every statement
// goes to the unit's connection (its open transaction); otherwise to the other one, so that what runs while a unit
// awaits its round trips never lands in the unit's transaction.
import { CheckbridgeError } from '../../errors.js';
import type { SqlDatabase, SqlStatement } from '../sql/database.js';
import type { SyncPostgres } from './sync-client.js';
import { UnitPostgres } from './unit-connection.js';

export class LanedPostgres implements SqlDatabase {
  private unitLane: UnitPostgres | null = null;
  private current: SyncPostgres;

  constructor(
    readonly main: SyncPostgres,
    /** Opens the unit's connection, the first time a unit runs (a command that never commits a group opens none). */
    private readonly openUnit: () => UnitPostgres,
    /** Why PostgreSQL counts as out of reach now (a unit stuck waiting), or null: the other lane then refuses at once. */
    private readonly unreachable: () => string | null = () => null,
  ) {
    this.current = main;
  }

  get unit(): UnitPostgres {
    return (this.unitLane ??= this.openUnit());
  }

  /** Why the unit's connection is lost now, or null (the other one waits a moment for its own reconnection). */
  get unitLost(): string | null {
    return this.unitLane?.lost ?? null;
  }

  /** The connection statements go to now. */
  get lane(): SyncPostgres {
    return this.current;
  }

  /** Runs `fn` with every statement on the unit's connection. */
  onUnitLane<T>(fn: () => T): T {
    const before = this.current;
    this.current = this.unit;
    try {
      return fn();
    } finally {
      this.current = before;
    }
  }

  prepare(sql: string): SqlStatement {
    const main = this.main.prepare(sql);
    let unit: SqlStatement | null = null;
    const pick = () => (this.current === this.main ? this.checked(main) : (unit ??= this.unit.prepare(sql)));
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
    this.unitLane?.close();
    this.main.close();
  }
}
