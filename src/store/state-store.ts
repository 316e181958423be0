import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CheckbridgeError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION, pendingMigrations } from './sqlite/migrations.js';
import { ExpiringTable } from './tables/expiring-table.js';
import { AggregateTable } from './tables/aggregate-members.js';
import { ResourceTables } from './tables/v2-resources.js';
import { Outbox } from './tables/bridge-outbox.js';
import { Checkpointer } from './sqlite/checkpointer.js';
import { WatchHolder, watchedDatabase, type DatastoreWatch } from './datastore-watch.js';
import { DEFAULT_STORE_QUOTA, applyQuota, quotaAlarm, quotaFailure, usedBytes } from './sqlite/quota.js';
import type { SqlDatabase, SqlStatement } from './sql/database.js';
import { PostgresQueryError, SyncPostgres } from './postgres/sync-client.js';
import { pgEnvironment, redactDsn } from './postgres/connection.js';
import { daemonEnvironment } from '../config/index.js';
import { STORE_SCHEMA, migrateStore, storeSchemaVersion } from './postgres/store-schema.js';
import { BatchRows, pairKey } from './postgres/batch-rows.js';
import { holdExclusively } from './sqlite/exclusive-lock.js';

export interface HistoryEntry {
  readonly status: number;
  readonly executed: number;
}

export interface StoredResult {
  readonly client: string;
  readonly check: Record<string, unknown>;
  readonly history: readonly HistoryEntry[];
  readonly lastOk: number | null;
}

type Row = Record<string, unknown>;

/** A result failed in a group commit's run without savepoints: the whole group runs again, with them. */
export class GroupRetry extends Error {
  constructor(readonly failure: unknown) {
    super('a result failed: the group commit runs again with a savepoint per result', { cause: failure });
  }
}

const NEW_PAGE_SIZE = 8192;

/**
 * The state store: one SQLite file (WAL) by default, or the same tables on PostgreSQL shared by several servers
 * (`open` / `openPostgres`); migrated on open, a newer schema is refused and never touched.
 */
export class StateStore {
  readonly db: SqlDatabase;
  /** The SQLite handle for what only SQLite has (pragmas, quota, WAL checkpoints); null on PostgreSQL. */
  readonly sqlite: Database.Database | null;
  /** The PostgreSQL connection itself (its savepoint mode), under `db`'s timed reads; null on SQLite. */
  private readonly postgres: SyncPostgres | null;
  private readonly statements: Record<string, SqlStatement>;
  /** Silence entries by id (`sub:check`), with the legacy expiry. */
  readonly silences: ExpiringTable<Record<string, unknown>>;
  readonly stashes: ExpiringTable<unknown>;
  readonly aggregates: AggregateTable;
  /** The size in use when a write was last refused over the quota: the alarm holds until the store shrinks below it. */
  private refusedAt: number | null = null;
  /** The v2 API's tables. */
  readonly resources: ResourceTables;
  /** The bridge's outbox and dead letters. */
  readonly outbox: Outbox;

  private constructor(
    db: SqlDatabase,
    sqlite: Database.Database | null,
    /** The maximum size in bytes (spec 8: 4 GB by default); SQLite only. */
    readonly quotaBytes: number,
  ) {
    // A PostgreSQL COMMIT is its log sync; every statement's reads are timed once a watch is set.
    this.postgres = db instanceof SyncPostgres ? db : null;
    if (this.postgres) this.postgres.onCommit = (ms) => this.watchHolder.sync(ms, 'COMMIT');
    db = watchedDatabase(db, this.watchHolder);
    this.db = db;
    this.sqlite = sqlite;
    // better-sqlite3 passes the wrapper's arguments through; the PostgreSQL side builds its closure per call.
    this.runInTransaction = sqlite ? sqlite.transaction((fn: () => unknown) => fn()) : (fn) => db.transaction(fn)();
    this.silences = new ExpiringTable(db, 'silences', 'id', 'data');
    this.stashes = new ExpiringTable(db, 'stashes', 'path', 'content');
    this.aggregates = new AggregateTable(db);
    // Several servers share a PostgreSQL store: what one writes must take effect on the others at once.
    this.resources = new ResourceTables(db, { shared: sqlite === null });
    this.outbox = new Outbox(db);
    const prepare = (sql: string) => db.prepare(sql);
    this.statements = {
      getClient: prepare('SELECT data FROM clients WHERE name = ?'),
      putClient: prepare('INSERT INTO clients (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data'),
      deleteClient: prepare('DELETE FROM clients WHERE name = ?'),
      listClients: prepare('SELECT data FROM clients ORDER BY name'),
      // What the v2 entity lists show: every namespace's entities, and each listed client in the legacy namespace (an
      // agent's client record mirrors its own entity, counted once, in its own namespace).
      countEntities: prepare(
        'SELECT COUNT(*) AS n FROM (SELECT namespace, name FROM v2_entities UNION ' +
          `SELECT CAST(? AS TEXT), name FROM clients WHERE data NOT LIKE '%"invalidated":true%' AND data NOT LIKE '%"entity_class":"agent"%' LIMIT ?) AS names`,
      ),
      hasV2Entity: prepare('SELECT 1 FROM v2_entities WHERE namespace = ? AND name = ?'),
      getResult: prepare('SELECT client, data, history, last_ok FROM results WHERE client = ? AND check_name = ?'),
      getHistory: prepare('SELECT history, last_ok FROM results WHERE client = ? AND check_name = ?'),
      putResult: prepare(
        'INSERT INTO results (client, check_name, data, history, last_ok) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT(client, check_name) DO UPDATE SET data = excluded.data, history = excluded.history, last_ok = excluded.last_ok',
      ),
      deleteResult: prepare('DELETE FROM results WHERE client = ? AND check_name = ?'),
      deleteResultsOfCheck: prepare('DELETE FROM results WHERE check_name = ?'),
      deleteResultsOfClient: prepare('DELETE FROM results WHERE client = ?'),
      listResults: prepare('SELECT client, data, history, last_ok FROM results ORDER BY client, check_name'),
      listResultChecks: prepare('SELECT client, data FROM results ORDER BY client, check_name'),
      listResultsOf: prepare('SELECT client, data, history, last_ok FROM results WHERE client = ? ORDER BY check_name'),
      getEvent: prepare('SELECT data FROM events WHERE client = ? AND check_name = ?'),
      putEvent: prepare('INSERT INTO events (client, check_name, data) VALUES (?, ?, ?) ON CONFLICT(client, check_name) DO UPDATE SET data = excluded.data'),
      deleteEvent: prepare('DELETE FROM events WHERE client = ? AND check_name = ?'),
      listEvents: prepare('SELECT data FROM events ORDER BY client, check_name'),
      listEventsOf: prepare('SELECT data FROM events WHERE client = ? ORDER BY check_name'),
      deleteEventsOfClient: prepare('DELETE FROM events WHERE client = ?'),
      ...(sqlite
        ? {}
        : {
            // Transaction-scoped locks, taken in one global order (sorted keys): two servers never deadlock on them.
            lockResults: prepare(
              'SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(key, 0) AS k FROM unnest(?::text[]) AS key ORDER BY k) AS keys',
            ),
            batchClients: prepare('SELECT name, data FROM clients WHERE name = ANY(?::text[])'),
            batchResults: prepare(
              'SELECT r.client, r.check_name, r.data, r.history, r.last_ok FROM results r JOIN unnest(?::text[], ?::text[]) AS k (client, check_name) ON r.client = k.client AND r.check_name = k.check_name',
            ),
            batchEvents: prepare(
              'SELECT e.client, e.check_name, e.data FROM events e JOIN unnest(?::text[], ?::text[]) AS k (client, check_name) ON e.client = k.client AND e.check_name = k.check_name',
            ),
          }),
    };
  }

  /** The schema version the file had when opened (lower than `schemaVersion()` after an in-place migration). */
  openedAtVersion = SCHEMA_VERSION;

  /**
   * Opens (creating) the store and applies pending migrations when every one is additive; `upgrade` also applies
   * the others (only `checkbridge upgrade` passes it, after a backup). `quotaBytes` bounds the file (spec §1.6).
   * `exclusive` (the offline commands) refuses a store a daemon holds open, and keeps any daemon out until closed.
   */
  static open(path: string, options: { upgrade?: boolean; quotaBytes?: number; exclusive?: boolean } = {}): StateStore {
    let db: Database.Database;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      db = new Database(path);
      if (options.exclusive) holdExclusively(db, path);
      // The store holds password hashes, the token signing key and provider credentials: its owner's eyes only.
      // SQLite gives the WAL and shared-memory files the database file's mode.
      if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
    } catch (error) {
      if (error instanceof CheckbridgeError) throw error;
      throw new CheckbridgeError('CB_STORE_OPEN', `${path}: ${(error as Error).message}`);
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new CheckbridgeError('CB_STORE_NEWER', `${path} has schema version ${version}, this binary knows ${SCHEMA_VERSION}`);
    }
    const pending = pendingMigrations(version);
    if (version > 0 && pending.needsUpgradeCommand && !options.upgrade) {
      db.close();
      throw new CheckbridgeError('CB_STORE_UPGRADE', `${path} has schema version ${version} and this binary needs ${SCHEMA_VERSION}: run \`checkbridge upgrade --state-dir ${dirname(path)}\` (it backs the store up first)`);
    }
    // A new file gets 8 KB pages: several events or results with their history (1–2 KB of JSON each) share a page,
    // and the group commits of many writes measured 5–10% faster than on 4 KB pages (one write per commit: slower).
    if (version === 0) db.pragma(`page_size = ${NEW_PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    for (const v of pending.versions) {
      db.transaction(() => {
        db.exec(MIGRATIONS[v - 1]!);
        db.pragma(`user_version = ${v}`);
      })();
    }
    const quotaBytes = options.quotaBytes ?? DEFAULT_STORE_QUOTA;
    // A step that rebuilt tables leaves their old pages free in a file that may now pass the quota, and SQLite keeps
    // max_page_count at least the file's size: the quota would silently grow to it. Compacted, the quota holds.
    const fileBytes = () => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    if (version > 0 && pending.versions.length > 0 && fileBytes() > quotaBytes) db.exec('VACUUM');
    applyQuota(db, quotaBytes);
    const store = new StateStore(db, db, quotaBytes);
    store.openedAtVersion = version;
    return store;
  }

  /**
   * Opens the store on PostgreSQL (`dsn`: URL or keyword string; the PG* variables fill in the rest), creating or
   * migrating its tables: the store several servers share. No quota: the database server bounds its own size.
   */
  static openPostgres(dsn: string, env: NodeJS.ProcessEnv = daemonEnvironment()): StateStore {
    const db = new SyncPostgres(dsn, pgEnvironment(env), redactDsn(dsn), STORE_SCHEMA);
    try {
      const version = migrateStore(db);
      const store = new StateStore(db, null, 0);
      store.openedAtVersion = version;
      return store;
    } catch (error) {
      db.close();
      if (error instanceof CheckbridgeError) throw error;
      throw new CheckbridgeError('CB_STORE_OPEN', `${db.name}: ${(error as Error).message}`);
    }
  }

  /** Which database holds the state. */
  get engine(): 'sqlite' | 'postgres' {
    return this.sqlite ? 'sqlite' : 'postgres';
  }

  /** The datastore alarm for `/health`: set while the quota leaves no room to grow. */
  alarm(): string | null {
    if (!this.sqlite) return null;
    const alarm = quotaAlarm(this.sqlite, this.quotaBytes, this.refusedAt);
    if (alarm === null) this.refusedAt = null;
    return alarm;
  }

  /** A write error as callers should see it: over the quota, a clear CB_STORE_QUOTA (and the alarm raised). */
  failure(error: unknown): unknown {
    if (!this.sqlite) return error;
    const mapped = quotaFailure(error, this.quotaBytes);
    if (mapped !== error && this.sqlite.open) this.refusedAt = usedBytes(this.sqlite);
    return mapped;
  }

  schemaVersion(): number {
    return this.sqlite ? (this.sqlite.pragma('user_version', { simple: true }) as number) : storeSchemaVersion(this.postgres!);
  }

  /**
   * Inside a transaction, before reading the results and events of these client/check pairs to write them back:
   * on PostgreSQL another server doing the same waits until this transaction ends, so no update is lost.
   * SQLite has one writer at a time already.
   */
  lockResults(pairs: readonly (readonly [client: string, check: string])[]): void {
    if (this.sqlite || pairs.length === 0) return;
    // Each client's own key too: a keepalive or another server's just-in-time client waits instead of overwriting,
    // and two batches that share an entity queue on it before touching its rows (no deadlock between servers).
    this.statements.lockResults!.all([...pairs.map(([client, check]) => `${client}/${check}`), ...pairs.map(([client]) => client)]);
    if (this.db.inTransaction) this.readBatch(pairs);
  }

  /** Serialises writes to these clients' rows between servers (a keepalive against a result's just-in-time client); a no-op on SQLite. */
  lockClients(names: readonly string[]): void {
    if (this.sqlite || names.length === 0) return;
    this.statements.lockResults!.all([...names]);
  }

  /** PostgreSQL's group commit: what `lockResults` locked, read in three statements for the batch (see BatchRows). */
  private batch: BatchRows | null = null;

  private readBatch(pairs: readonly (readonly [string, string])[]): void {
    const batch = new BatchRows();
    const clients = pairs.map(([client]) => client);
    const checks = pairs.map(([, check]) => check);
    for (const name of clients) batch.clients.set(name, null);
    for (const [client, check] of pairs) {
      batch.results.set(pairKey(client, check), null);
      batch.events.set(pairKey(client, check), null);
    }
    for (const row of this.statements.batchClients!.all(clients) as Row[]) batch.clients.set(String(row.name), String(row.data));
    for (const row of this.statements.batchResults!.all(clients, checks) as Row[]) batch.results.set(pairKey(String(row.client), String(row.check_name)), row);
    for (const row of this.statements.batchEvents!.all(clients, checks) as Row[]) batch.events.set(pairKey(String(row.client), String(row.check_name)), String(row.data));
    this.batch = batch;
    this.silences.snapshotUntilReset();
  }

  // One wrapper for every call: better-sqlite3 builds four functions per `db.transaction`, a cost on every group commit.
  private readonly runInTransaction: (fn: () => unknown) => unknown;

  /** Runs `fn` in one transaction: the unit of group commit; called inside another, it is a savepoint. */
  transaction<T>(fn: () => T): T {
    const outermost = !this.db.inTransaction;
    try {
      return this.runInTransaction(fn) as T;
    } catch (error) {
      // What the batch kept may have been rolled back: read again from the database.
      this.forgetBatch();
      this.resources.forgetEventStates();
      throw this.failure(error);
    } finally {
      if (outermost) this.forgetBatch();
    }
  }

  /**
   * The intake's group commit. On PostgreSQL its savepoints first do not wait for their writes (the batch's writes
   * travel together); should a write fail, that run is rolled back whole, `retrying` undoes what it kept outside the
   * database, and `fn` runs again with each savepoint waiting for its writes, so that only the failing one fails.
   */
  groupCommit<T>(fn: () => T, retrying: () => void): T {
    if (this.sqlite) {
      // A savepoint per result cost as much as a write: the first run takes none, and a throw runs the group again with them.
      this.optimistic = true;
      try {
        return this.transaction(fn);
      } catch (error) {
        if (!(error instanceof GroupRetry)) throw error;
      } finally {
        this.optimistic = false;
      }
      retrying();
      return this.transaction(fn);
    }
    const db = this.postgres!;
    db.awaitSavepoints = false;
    try {
      return this.transaction(fn);
    } catch (error) {
      if (!(error instanceof PostgresQueryError && error.transactionLost)) throw error;
    } finally {
      db.awaitSavepoints = true;
    }
    retrying();
    return this.transaction(fn);
  }

  /** Set during the first run of an SQLite group commit: `savepoint` then takes none. */
  private optimistic = false;

  /**
   * One result's writes inside a group commit, undone alone when `fn` throws (a savepoint). In the first run of an
   * SQLite group commit there is none: a throw there becomes a GroupRetry, which rolls the group back to run again.
   */
  savepoint<T>(fn: () => T): T {
    if (!this.optimistic) return this.transaction(fn);
    try {
      return fn();
    } catch (error) {
      throw new GroupRetry(error);
    }
  }

  private forgetBatch(): void {
    if (this.sqlite) return;
    this.batch = null;
    this.silences.resetSnapshot();
  }

  getClient(name: string): Record<string, unknown> | null {
    const kept = this.batch?.clients.get(name);
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    const row = this.statements.getClient!.get(name) as Row | undefined;
    return row ? JSON.parse(String(row.data)) : null;
  }

  /** Legacy clients and v2 entities, each name once, counted up to `upTo`: what the entity limit counts. */
  countEntities(upTo: number, legacyNamespace: string): number {
    // Counting stops at `upTo`: the entity limit only asks whether it is reached, and a full count per new client made a
    // fleet of 50,000 new clients quadratic.
    return Number((this.statements.countEntities!.get(legacyNamespace, upTo) as { n: number }).n);
  }

  /** Whether a v2 entity of this name exists in the legacy namespace (a legacy client by that name is then not a new entity). */
  hasV2Entity(name: string, legacyNamespace: string): boolean {
    return this.statements.hasV2Entity!.get(legacyNamespace, name) !== undefined;
  }

  putClient(client: Record<string, unknown>): void {
    const data = JSON.stringify(client);
    this.statements.putClient!.run(String(client.name), data);
    this.batch?.clients.set(String(client.name), data);
  }

  /** Removes a client with its results and events; `tombstone` keeps an invalidated signature (API invalidate). */
  deleteClient(name: string, tombstone?: { until: number | null }): void {
    this.batch = null;
    this.statements.deleteClient!.run(name);
    this.statements.deleteResultsOfClient!.run(name);
    this.statements.deleteEventsOfClient!.run(name);
    if (tombstone) this.putClient({ name, signature: 'invalidated', invalidated: true, invalidated_until: tombstone.until });
  }

  listClients(): Record<string, unknown>[] {
    return (this.statements.listClients!.all() as Row[]).map((r) => JSON.parse(String(r.data)));
  }

  private resultOf(row: Row | undefined): StoredResult | null {
    if (!row) return null;
    return { client: String(row.client), check: JSON.parse(String(row.data)), history: JSON.parse(String(row.history)), lastOk: (row.last_ok as number | null) ?? null };
  }

  getResult(client: string, check: string): StoredResult | null {
    const kept = this.batch?.results.get(pairKey(client, check));
    if (kept !== undefined) return this.resultOf(kept ?? undefined);
    return this.resultOf(this.statements.getResult!.get(client, check) as Row | undefined);
  }

  /** What a new result carries on from the last one: its history and last OK time, without parsing the check. */
  getHistory(client: string, check: string): Pick<StoredResult, 'history' | 'lastOk'> | null {
    const kept = this.batch?.results.get(pairKey(client, check));
    const row = kept !== undefined ? kept : (this.statements.getHistory!.get(client, check) as Row | undefined);
    return row ? { history: JSON.parse(String(row.history)), lastOk: (row.last_ok as number | null) ?? null } : null;
  }

  putResult(client: string, check: Record<string, unknown>, history: readonly HistoryEntry[], lastOk: number | null): void {
    const row = { client, check_name: String(check.name), data: JSON.stringify(check), history: JSON.stringify(history), last_ok: lastOk };
    this.statements.putResult!.run(row.client, row.check_name, row.data, row.history, row.last_ok);
    this.batch?.results.set(pairKey(client, row.check_name), row);
  }

  deleteResult(client: string, check: string): boolean {
    this.batch = null;
    return this.statements.deleteResult!.run(client, check).changes > 0;
  }

  deleteResultsOfCheck(check: string): void {
    this.batch = null;
    this.statements.deleteResultsOfCheck!.run(check);
  }

  listResults(client?: string): StoredResult[] {
    const rows = (client === undefined ? this.statements.listResults!.all() : this.statements.listResultsOf!.all(client)) as Row[];
    return rows.map((r) => this.resultOf(r)!);
  }

  /** Every stored result's check, one row at a time and without its history: a pass over all results stays small. */
  *resultChecks(): Generator<{ client: string; check: Record<string, unknown> }> {
    // SQLite steps through the rows; the PostgreSQL side answers whole (the rows without their histories).
    const rows = this.sqlite ? ((this.statements.listResultChecks as unknown as Database.Statement).iterate() as IterableIterator<Row>) : (this.statements.listResultChecks!.all() as Row[]);
    for (const row of rows) yield { client: String(row.client), check: JSON.parse(String(row.data)) };
  }

  getEvent(client: string, check: string): Record<string, unknown> | null {
    const kept = this.batch?.events.get(pairKey(client, check));
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    const row = this.statements.getEvent!.get(client, check) as Row | undefined;
    return row ? JSON.parse(String(row.data)) : null;
  }

  putEvent(client: string, check: string, event: Record<string, unknown>): void {
    const data = JSON.stringify(event);
    this.statements.putEvent!.run(client, check, data);
    this.batch?.events.set(pairKey(client, check), data);
  }

  deleteEvent(client: string, check: string): boolean {
    const key = pairKey(client, check);
    const kept = this.batch?.events.get(key);
    const removed = this.statements.deleteEvent!.run(client, check);
    if (kept === undefined) return removed.changes > 0;
    this.batch!.events.set(key, null);
    return kept !== null;
  }

  listEvents(client?: string): Record<string, unknown>[] {
    const rows = (client === undefined ? this.statements.listEvents!.all() : this.statements.listEventsOf!.all(client)) as Row[];
    return rows.map((r) => JSON.parse(String(r.data)));
  }

  private checkpointer: Checkpointer | null = null;
  private readonly watchHolder = new WatchHolder();

  /** The daemon's store checkpoints its WAL on a worker thread, not in the intake's commits. */
  checkpointInBackground(): void {
    if (!this.checkpointer && this.sqlite && this.sqlite.name !== ':memory:') this.checkpointer = new Checkpointer(this.sqlite, (ms) => this.watchHolder.sync(ms, 'WAL checkpoint'));
  }

  /** From now on, slow reads and log syncs are reported to `watch` (spec §8). */
  watchDatastore(watch: DatastoreWatch): void {
    this.watchHolder.watch = watch;
  }

  close(): void {
    this.checkpointer?.stop();
    this.checkpointer = null;
    if (this.db.open) this.db.close();
  }
}
