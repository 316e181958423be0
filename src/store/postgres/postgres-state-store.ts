import { CheckbridgeError } from '../../errors.js';
import { daemonEnvironment } from '../../config/index.js';
import type { UnitKeys, V2Keys } from '../state-store.js';
import { ReadAhead } from './read-ahead.js';
import { BatchedStateStore } from './batched-state-store.js';
import { SyncPostgres } from './sync-client.js';
import { BlockedRead, PostgresQueryError } from './query-error.js';
import { pgEnvironment, redactDsn, type PgEnvironment } from './connection.js';
import type { Logger } from 'pino';
import { SharedResourceTables } from './shared-resources.js';
import { StoreReach } from './store-reach.js';
import { STORE_SCHEMA, migrateStore, storeSchemaVersion } from './store-schema.js';
import type { BatchRows } from './batch-rows.js';
import { batchStatements } from './blocking-batch-reads.js';
import { BatchedResourceTables } from './batched-resources.js';
import { SetWrites } from './set-writes.js';
import { guarded } from './guarded-connection.js';
import type { LanedPostgres } from './laned-connection.js';
import type { UnitPostgres } from './unit-connection.js';
import { storeLanes } from './store-lanes.js';
import { lockedWrite } from './locked-write.js';
import { UnitChecks, UnitPlan, isConflict, unitKeySet, writtenKeys, type WrittenKeys } from './unit-of-work.js';
import { UnitScheduler } from './unit-scheduler.js';
import { RowCache } from './row-cache.js';
import { KeyIndex, MAX_INDEXED_KEYS } from './key-index.js';
const OPTIMISTIC_RUNS = 3; // runs of a unit whose rows changed under it, before it runs with its locks taken first
const READS_AHEAD = 4; // reads a unit's processing needed, each read outside it and the unit run again, before it runs blocking
// Units in flight together (a connection each): enough that the network's wait is shared; each costs a connection.
const UNIT_LANES = 3;
type UnitOutcome<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly conflict: boolean; readonly blocked?: BlockedRead['read'] };

/**
 * The state store several servers share: the same tables on PostgreSQL. Writers of the same rows queue on advisory
 * locks, and a group commit reads its rows once for the whole batch (BatchRows) and sends its writes set-based at COMMIT
 * (SetWrites). No quota: the database server bounds its own size.
 */
export class PostgresStateStore extends BatchedStateStore {
  readonly engine = 'postgres' as const;
  readonly sqlite = null;
  private readonly setWrites: SetWrites;
  /** A group commit's rows: what `lockResults` locked and the v2 rows named with it, a statement per table (see BatchRows). */
  protected batch: BatchRows | null = null;
  /** What is known of PostgreSQL's reach (the listening connection, once the daemon listens; the units' waits). */
  private readonly reach: StoreReach;
  private readonly checks: UnitChecks;
  private readonly units: UnitScheduler;
  private readonly rows = new RowCache();
  private readonly index = new KeyIndex(); // the v2 rows known to exist: one neither cached nor known is taken as absent
  private readonly ahead: ReadAhead;
  /** The configuration writes counted when the running unit's processing began (for its answered reads). */
  private runWrites = 0;
  /** Units that read what they needed outside themselves and ran again, and units that ran as the blocking group commit. */
  readonly unitFigures = { readsAhead: 0, blocking: 0 };

  private constructor(
    /** The connections themselves (their savepoint modes), under `db`'s timed reads. */
    private readonly lanes: LanedPostgres,
    openedAtVersion: number,
    /** Where the listening connection goes (the store's own DSN and variables). */
    where: { dsn: string; env: PgEnvironment },
  ) {
    const self: { store?: PostgresStateStore } = {};
    const locked = <T>(key: string, write: () => T) => self.store!.locked(key, write);
    const access = { rows: () => self.store?.batch ?? null, buffering: () => self.store?.buffering() ?? false, locked, readRows: lanes.readRows };
    super(
      guarded(lanes, () => self.store?.sendPending()),
      { openedAtVersion, shared: true, resourceTables: (db) => new BatchedResourceTables(db, access) },
    );
    self.store = this;
    this.setWrites = new SetWrites(lanes);
    this.checks = new UnitChecks(lanes);
    this.units = new UnitScheduler(lanes.unitLaneCount);
    this.reach = new StoreReach(lanes, this.units, this.resources as SharedResourceTables, where);
    this.ahead = new ReadAhead(this.rows, this.index, lanes, this.units, () => this.reach.outOfReach());
    // A PostgreSQL COMMIT is its log sync.
    lanes.main.onCommit = (ms) => this.watchHolder.sync(ms, 'COMMIT');
    this.locks = batchStatements((sql) => this.db.prepare(sql));
    this.savepointsOf = lanes.main;
  }

  /** Opens the store on PostgreSQL (`dsn`: URL or keyword string; the PG* variables fill in the rest), creating or migrating its tables. */
  static open(dsn: string, env: NodeJS.ProcessEnv = daemonEnvironment()): PostgresStateStore {
    const db = new SyncPostgres(dsn, pgEnvironment(env), redactDsn(dsn), STORE_SCHEMA);
    try {
      const version = migrateStore(db);
      const [away, where] = [{} as { store?: PostgresStateStore }, { dsn, env: pgEnvironment(env) }];
      const lanes = storeLanes(db, where, () => away.store?.reach, UNIT_LANES);
      return (away.store = new PostgresStateStore(lanes, version, where));
    } catch (error) {
      db.close();
      if (error instanceof CheckbridgeError) throw error;
      throw new CheckbridgeError('CB_STORE_OPEN', `${db.name}: ${(error as Error).message}`);
    }
  }

  override listenForChanges(logger: Logger): Promise<void> {
    const off = `the key index is off: past ${MAX_INDEXED_KEYS} rows, a group commit reads the rows it does not know`;
    this.index.onTurnedOff = (table, rows) => logger.child({ component: 'store' }).info({ table, rows }, off);
    return this.reach.listen(logger);
  }

  alarm(): string | null {
    return this.reach.alarm();
  }

  /** A daemon's store answers from what it knows (its listening connection's probes, its units' waits): no statement. */
  override problem(): string {
    return this.reach.problem() ?? super.problem();
  }

  override close(): void {
    this.reach.close();
    super.close();
  }

  failure(error: unknown): unknown {
    return error;
  }

  schemaVersion(): number {
    return storeSchemaVersion(this.lanes.main);
  }

  /** A v2 row's write outside a group commit, holding the row's lock (locked-write.ts). */
  private locked<T>(key: string, write: () => T): T {
    return lockedWrite(this.locks, this.db.inTransaction, (fn) => this.transaction(fn), key, write);
  }

  /** Whether writes wait for COMMIT, kept in the batch: a group commit's first run, whose failure reruns it whole. */
  protected buffering(): boolean {
    return this.batch !== null && !this.lanes.lane.awaitSavepoints && this.lanes.lane.inTransaction;
  }

  /** Sends the batch's pending writes as set-based statements (deferred: they travel with the next statement). */
  protected sendPending(): void {
    if (this.batch && this.batch.pending.size > 0) this.setWrites.send(this.batch);
  }

  /** Drops what the batch holds, after sending what it has not sent. */
  protected dropBatch(): void {
    this.sendPending();
    this.batch = null;
  }

  /** Every row read (another server may have changed it since this one's cache), one round trip awaited on the reader connection. */
  override async read<T>(keys: UnitKeys, fn: () => T): Promise<T> {
    const plan = new UnitPlan(keys, new RowCache());
    if (!plan.reads) return fn();
    const away = this.reach.outOfReach();
    if (away !== null) throw new CheckbridgeError('CB_STORE_UNAVAILABLE', away);
    const { results = [] } = await this.lanes.reader().requestAsync({ sql: plan.reads.join(';\n'), simple: true, multi: true });
    this.batch = plan.batchOf(results);
    try {
      return fn();
    } finally {
      this.forgetBatch();
    }
  }

  /** While every unit connection is busy, the rows of a unit submitted now are read meanwhile (read-ahead.ts). */
  override readAhead(keysOf: () => V2Keys): void {
    this.ahead.want(keysOf);
  }

  /** How many group commits may be in flight together (units of disjoint rows, a connection each). */
  override get unitsInFlight(): number {
    return this.units.lanes;
  }

  /** A unit of work (unit-of-work.ts), beside others of other rows; rerun if its rows changed, else blocking with its locks first. */
  override unit<T>(keys: UnitKeys, fn: () => T, retrying: () => void): Promise<T> {
    // Legacy results (and units naming nothing) may claim result ids or consume silences inside: where a read may block.
    const v2Only = keys.pairs.length === 0 && (keys.v2?.events.length ?? 0) + (keys.v2?.entities.length ?? 0) > 0;
    return this.units.run(unitKeySet(keys), (lane) => this.unitOn(this.lanes.unit(lane, v2Only ? 'awaited' : 'blocking'), keys, fn, retrying));
  }

  private async unitOn<T>(lane: UnitPostgres, keys: UnitKeys, fn: () => T, retrying: () => void): Promise<T> {
    return this.unitRuns(lane, keys, fn, retrying).finally(() => lane.answeredReads.clear());
  }

  private async unitRuns<T>(lane: UnitPostgres, keys: UnitKeys, fn: () => T, retrying: () => void): Promise<T> {
    this.ahead.readIndex();
    const shared = this.resources as SharedResourceTables;
    let ran = false;
    for (let run = 0, readsAhead = 0; run < OPTIMISTIC_RUNS; run++) {
      // Planned once its turn came: a unit before it that shared its rows has written them.
      const plan = new UnitPlan(keys, this.rows, this.index);
      if (!plan.reads) break;
      if (ran) retrying();
      const outcome = await this.runUnit(lane, plan, fn, keys.pairs.length > 0);
      ran = true;
      if (outcome.done) return outcome.value;
      // A read its keys did not name (a configuration list not yet held, while held ones are): read on the reader, then again.
      if (outcome.blocked && shared.holding && readsAhead++ < READS_AHEAD && this.reach.outOfReach() === null) {
        const heard = shared.heard;
        const { rows } = await this.lanes.reader().requestAsync({ sql: outcome.blocked.sql, params: outcome.blocked.params });
        // Good for this unit's runs while no change is heard, and in each run until it writes configuration itself.
        lane.answeredReads.put(outcome.blocked, rows, () => shared.heard === heard && shared.configWrites === this.runWrites);
        this.unitFigures.readsAhead++;
        run--;
        continue;
      }
      if (!outcome.conflict) break;
    }
    if (ran) retrying();
    this.unitFigures.blocking++;
    return super.unit(keys, fn, retrying);
  }

  /** One run; `legacy` (results to process): the silences read with the rows, not by a blocking read inside. */
  private async runUnit<T>(lane: UnitPostgres, plan: UnitPlan, fn: () => T, legacy: boolean): Promise<UnitOutcome<T>> {
    const read = await lane.beginUnit(legacy ? [...plan.reads!, this.silences.allSql] : plan.reads!);
    const batch = plan.batchOf(read);
    let [value, written]: [T | undefined, WrittenKeys | undefined] = [undefined, undefined];
    const shared = this.resources as SharedResourceTables;
    try {
      value = this.lanes.onUnitLane(lane, () => {
        this.runWrites = shared.configWrites;
        lane.awaitSavepoints = false;
        this.batch = batch;
        this.unitLocks = new Set(plan.lockKeys);
        if (plan.lockKeys.length > 0) this.locks.lockResults.run(plan.lockKeys);
        this.checks.send(plan);
        if (legacy) this.silences.snapshotFrom(read[read.length - 1]!.rows);
        const result = fn();
        written = writtenKeys(batch);
        this.sendPending();
        return result;
      });
    } catch (error) {
      plan.forget(written);
      await lane.rollbackUnit();
      return this.unitFailed(error, shared.configWrites !== this.runWrites);
    } finally {
      lane.awaitSavepoints = true;
      this.unitLocks = null;
      this.forgetBatch();
    }
    try {
      plan.remember(batch, written!, await lane.commitUnit());
    } catch (error) {
      plan.forget(written);
      return this.unitFailed(error);
    }
    return { done: true, value: value as T };
  }

  /** A unit that did not commit: run again when that can help, else its error; what it read after writing is forgotten. */
  private unitFailed(error: unknown, wroteConfiguration = true): UnitOutcome<never> {
    // A unit given up for a read it could not wait for, having written no configuration, held nothing it made.
    if (!(error instanceof BlockedRead) || wroteConfiguration) this.resources.forgetEventStates();
    if (error instanceof BlockedRead) return { done: false, conflict: false, blocked: error.read };
    if (error instanceof PostgresQueryError && error.transactionLost) return { done: false, conflict: isConflict(error) };
    throw this.failure(error);
  }

  protected override forgetBatch(): void {
    this.batch = null;
    this.silences.resetSnapshot();
  }

  // Nothing to checkpoint: the database server keeps its own log.
  checkpointInBackground(): void {}
}
