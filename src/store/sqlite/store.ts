import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CheckbridgeError } from '../../errors.js';
import { MIGRATIONS, SCHEMA_VERSION, pendingMigrations } from './migrations.js';
import { ExpiringTable } from './expiring-table.js';
import { AggregateTable } from './aggregate-table.js';
import { V2Store } from './v2-store.js';
import { Outbox } from './outbox.js';
import { Checkpointer } from './checkpointer.js';
import { DEFAULT_STORE_QUOTA, applyQuota, quotaAlarm, quotaFailure, usedBytes } from './quota.js';

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

const NEW_PAGE_SIZE = 8192;

/** The local history store: one SQLite file, WAL, migrated on open; a newer file is refused, never touched. */
export class SqliteStore {
  readonly db: Database.Database;
  private readonly statements: Record<string, Database.Statement>;
  /** Silence entries by id (`sub:check`), with the legacy expiry. */
  readonly silences: ExpiringTable<Record<string, unknown>>;
  readonly stashes: ExpiringTable<unknown>;
  readonly aggregates: AggregateTable;
  /** The size in use when a write was last refused over the quota: the alarm holds until the store shrinks below it. */
  private refusedAt: number | null = null;
  /** The v2 API's tables. */
  readonly v2: V2Store;
  /** The bridge's outbox and dead letters. */
  readonly outbox: Outbox;

  private constructor(
    db: Database.Database,
    /** The maximum size in bytes (spec 8: 4 GB by default). */
    readonly quotaBytes: number,
  ) {
    this.db = db;
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
    this.silences = new ExpiringTable(db, 'silences', 'id', 'data');
    this.stashes = new ExpiringTable(db, 'stashes', 'path', 'content');
    this.aggregates = new AggregateTable(db);
    this.v2 = new V2Store(db);
    this.outbox = new Outbox(db);
    const prepare = (sql: string) => db.prepare(sql);
    this.statements = {
      getClient: prepare('SELECT data FROM clients WHERE name = ?'),
      putClient: prepare('INSERT INTO clients (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data'),
      deleteClient: prepare('DELETE FROM clients WHERE name = ?'),
      listClients: prepare('SELECT data FROM clients ORDER BY name'),
      countEntities: prepare('SELECT COUNT(*) AS n FROM (SELECT name FROM clients UNION SELECT name FROM v2_entities)'),
      hasV2Entity: prepare('SELECT 1 FROM v2_entities WHERE name = ? LIMIT 1'),
      getResult: prepare('SELECT client, data, history, last_ok FROM results WHERE client = ? AND check_name = ?'),
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
    };
  }

  /** The schema version the file had when opened (lower than `schemaVersion()` after an in-place migration). */
  openedAtVersion = SCHEMA_VERSION;

  /**
   * Opens (creating) the store and applies pending migrations when every one is additive; `upgrade` also applies
   * the others (only `checkbridge upgrade` passes it, after a backup). `quotaBytes` bounds the file (spec §1.6).
   */
  static open(path: string, options: { upgrade?: boolean; quotaBytes?: number } = {}): SqliteStore {
    let db: Database.Database;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      db = new Database(path);
      // The store holds password hashes, the token signing key and provider credentials: its owner's eyes only.
      // SQLite gives the WAL and shared-memory files the database file's mode.
      if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
    } catch (error) {
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
    // A new file gets 8 KB pages: an event or a result with its history (1–2 KB of JSON) then fits in its b-tree
    // page instead of spilling into an overflow page of its own (WITHOUT ROWID rows spill past 1/4 page).
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
    applyQuota(db, quotaBytes);
    const store = new SqliteStore(db, quotaBytes);
    store.openedAtVersion = version;
    return store;
  }

  /** The datastore alarm for `/health`: set while the quota leaves no room to grow. */
  alarm(): string | null {
    const alarm = quotaAlarm(this.db, this.quotaBytes, this.refusedAt);
    if (alarm === null) this.refusedAt = null;
    return alarm;
  }

  /** A write error as callers should see it: over the quota, a clear CB_STORE_QUOTA (and the alarm raised). */
  failure(error: unknown): unknown {
    const mapped = quotaFailure(error, this.quotaBytes);
    if (mapped !== error && this.db.open) this.refusedAt = usedBytes(this.db);
    return mapped;
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  // One wrapper for every call: better-sqlite3 builds four functions per `db.transaction`, a cost on every group commit.
  private readonly runInTransaction: (fn: () => unknown) => unknown;

  /** Runs `fn` in one transaction: the unit of group commit; called inside another, it is a savepoint. */
  transaction<T>(fn: () => T): T {
    try {
      return this.runInTransaction(fn) as T;
    } catch (error) {
      throw this.failure(error);
    }
  }

  getClient(name: string): Record<string, unknown> | null {
    const row = this.statements.getClient!.get(name) as Row | undefined;
    return row ? JSON.parse(String(row.data)) : null;
  }

  /** Legacy clients and v2 entities, each name once: what the entity limit counts. */
  countEntities(): number {
    return Number((this.statements.countEntities!.get() as { n: number }).n);
  }

  /** Whether a v2 entity of this name exists in any namespace (a legacy client by that name is then not a new entity). */
  hasV2Entity(name: string): boolean {
    return this.statements.hasV2Entity!.get(name) !== undefined;
  }

  putClient(client: Record<string, unknown>): void {
    this.statements.putClient!.run(String(client.name), JSON.stringify(client));
  }

  /** Removes a client with its results and events; `tombstone` keeps an invalidated signature (API invalidate). */
  deleteClient(name: string, tombstone?: { until: number | null }): void {
    this.statements.deleteClient!.run(name);
    this.statements.deleteResultsOfClient!.run(name);
    this.db.prepare('DELETE FROM events WHERE client = ?').run(name);
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
    return this.resultOf(this.statements.getResult!.get(client, check) as Row | undefined);
  }

  putResult(client: string, check: Record<string, unknown>, history: readonly HistoryEntry[], lastOk: number | null): void {
    this.statements.putResult!.run(client, String(check.name), JSON.stringify(check), JSON.stringify(history), lastOk);
  }

  deleteResult(client: string, check: string): boolean {
    return this.statements.deleteResult!.run(client, check).changes > 0;
  }

  deleteResultsOfCheck(check: string): void {
    this.statements.deleteResultsOfCheck!.run(check);
  }

  listResults(client?: string): StoredResult[] {
    const rows = (client === undefined ? this.statements.listResults!.all() : this.statements.listResultsOf!.all(client)) as Row[];
    return rows.map((r) => this.resultOf(r)!);
  }

  /** Every stored result's check, one row at a time and without its history: a pass over all results stays small. */
  *resultChecks(): Generator<{ client: string; check: Record<string, unknown> }> {
    for (const row of this.statements.listResultChecks!.iterate() as IterableIterator<Row>) yield { client: String(row.client), check: JSON.parse(String(row.data)) };
  }

  getEvent(client: string, check: string): Record<string, unknown> | null {
    const row = this.statements.getEvent!.get(client, check) as Row | undefined;
    return row ? JSON.parse(String(row.data)) : null;
  }

  putEvent(client: string, check: string, event: Record<string, unknown>): void {
    this.statements.putEvent!.run(client, check, JSON.stringify(event));
  }

  deleteEvent(client: string, check: string): boolean {
    return this.statements.deleteEvent!.run(client, check).changes > 0;
  }

  listEvents(client?: string): Record<string, unknown>[] {
    const rows = (client === undefined ? this.statements.listEvents!.all() : this.statements.listEventsOf!.all(client)) as Row[];
    return rows.map((r) => JSON.parse(String(r.data)));
  }

  private checkpointer: Checkpointer | null = null;

  /** The daemon's store checkpoints its WAL on a worker thread, not in the intake's commits. */
  checkpointInBackground(): void {
    if (!this.checkpointer && this.db.name !== ':memory:') this.checkpointer = new Checkpointer(this.db);
  }

  close(): void {
    this.checkpointer?.stop();
    this.checkpointer = null;
    if (this.db.open) this.db.close();
  }
}
