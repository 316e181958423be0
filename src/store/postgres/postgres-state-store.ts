import { CheckbridgeError } from '../../errors.js';
import { daemonEnvironment } from '../../config/index.js';
import type { SqlStatement } from '../sql/database.js';
import { SqlStateStore, type ResultRow, type Row } from '../sql/sql-state-store.js';
import { PostgresQueryError, SyncPostgres } from './sync-client.js';
import { pgEnvironment, poolConfigOf, redactDsn, type PgEnvironment } from './connection.js';
import type { Logger } from 'pino';
import { SharedResourceTables } from './shared-resources.js';
import { ChangeListener } from './change-listener.js';
import { STORE_SCHEMA, migrateStore, storeSchemaVersion } from './store-schema.js';
import { BatchRows, pairKey } from './batch-rows.js';

/**
 * The state store several servers share: the same tables on PostgreSQL. Writers of the same rows queue on advisory
 * locks, and a group commit reads its rows once for the whole batch (BatchRows). No quota: the database server bounds its own size.
 */
export class PostgresStateStore extends SqlStateStore {
  readonly engine = 'postgres' as const;
  readonly sqlite = null;
  private readonly locks: { lockResults: SqlStatement; batchClients: SqlStatement; batchResults: SqlStatement; batchEvents: SqlStatement };
  /** A group commit's rows: what `lockResults` locked, read in three statements for the batch (see BatchRows). */
  private batch: BatchRows | null = null;
  /** The configuration caches' notifications, once the daemon listens (listenForChanges). */
  private listener: ChangeListener | null = null;

  private constructor(
    /** The connection itself (its savepoint mode), under `db`'s timed reads. */
    private readonly connection: SyncPostgres,
    openedAtVersion: number,
    /** Where the listening connection goes (the store's own DSN and variables). */
    private readonly where: { dsn: string; env: PgEnvironment },
  ) {
    super(connection, { openedAtVersion, shared: true, resourceTables: (db) => new SharedResourceTables(db) });
    // A PostgreSQL COMMIT is its log sync.
    connection.onCommit = (ms) => this.watchHolder.sync(ms, 'COMMIT');
    const prepare = (sql: string) => this.db.prepare(sql);
    this.locks = {
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
    };
  }

  /**
   * Opens the store on PostgreSQL (`dsn`: URL or keyword string; the PG* variables fill in the rest), creating or
   * migrating its tables.
   */
  static open(dsn: string, env: NodeJS.ProcessEnv = daemonEnvironment()): PostgresStateStore {
    const db = new SyncPostgres(dsn, pgEnvironment(env), redactDsn(dsn), STORE_SCHEMA);
    try {
      return new PostgresStateStore(db, migrateStore(db), { dsn, env: pgEnvironment(env) });
    } catch (error) {
      db.close();
      if (error instanceof CheckbridgeError) throw error;
      throw new CheckbridgeError('CB_STORE_OPEN', `${db.name}: ${(error as Error).message}`);
    }
  }

  /** Caches on: configuration reads come from memory, dropped by each change any server commits (a daemon's store). */
  override async listenForChanges(logger: Logger): Promise<void> {
    if (this.listener) return;
    const { max: _max, ...connection } = poolConfigOf(this.where.dsn, 1, this.where.env);
    this.listener = new ChangeListener(connection, this.resources as SharedResourceTables, logger.child({ component: 'store' }));
    await this.listener.start();
  }

  /** Degraded while a daemon's store does not hear other servers' changes: its configuration is read from PostgreSQL. */
  alarm(): string | null {
    const away = this.listener ? (this.listener.notListening ?? (this.resources as SharedResourceTables).untrusted) : null;
    return away === null ? null : `DEGRADED: not listening for other servers' changes (${away}); configuration read from PostgreSQL`;
  }

  override close(): void {
    void this.listener?.close();
    super.close();
  }

  failure(error: unknown): unknown {
    return error;
  }

  schemaVersion(): number {
    return storeSchemaVersion(this.connection);
  }

  lockResults(pairs: readonly (readonly [client: string, check: string])[]): void {
    if (pairs.length === 0) return;
    // Each client's own key too: a keepalive or another server's just-in-time client waits instead of overwriting,
    // and two batches that share an entity queue on it before touching its rows (no deadlock between servers).
    this.locks.lockResults.all([...pairs.map(([client, check]) => `${client}/${check}`), ...pairs.map(([client]) => client)]);
    if (this.db.inTransaction) this.readBatch(pairs);
  }

  lockClients(names: readonly string[]): void {
    if (names.length === 0) return;
    this.locks.lockResults.all([...names]);
  }

  private readBatch(pairs: readonly (readonly [string, string])[]): void {
    const batch = new BatchRows();
    const clients = pairs.map(([client]) => client);
    const checks = pairs.map(([, check]) => check);
    for (const name of clients) batch.clients.set(name, null);
    for (const [client, check] of pairs) {
      batch.results.set(pairKey(client, check), null);
      batch.events.set(pairKey(client, check), null);
    }
    for (const row of this.locks.batchClients.all(clients) as Row[]) batch.clients.set(String(row.name), String(row.data));
    for (const row of this.locks.batchResults.all(clients, checks) as Row[]) batch.results.set(pairKey(String(row.client), String(row.check_name)), row);
    for (const row of this.locks.batchEvents.all(clients, checks) as Row[])
      batch.events.set(pairKey(String(row.client), String(row.check_name)), String(row.data));
    this.batch = batch;
    this.silences.snapshotUntilReset();
  }

  /**
   * The savepoints of the first run do not wait for their writes (the batch's writes travel together); should a write
   * fail, that run is rolled back whole and `fn` runs again with each savepoint waiting for its writes.
   */
  groupCommit<T>(fn: () => T, retrying: () => void): T {
    this.connection.awaitSavepoints = false;
    try {
      return this.transaction(fn);
    } catch (error) {
      if (!(error instanceof PostgresQueryError && error.transactionLost)) throw error;
    } finally {
      this.connection.awaitSavepoints = true;
    }
    retrying();
    return this.transaction(fn);
  }

  protected override forgetBatch(): void {
    this.batch = null;
    this.silences.resetSnapshot();
  }

  // Nothing to checkpoint: the database server keeps its own log.
  checkpointInBackground(): void {}

  override getClient(name: string): Record<string, unknown> | null {
    const kept = this.batch?.clients.get(name);
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    return super.getClient(name);
  }

  protected override putClientData(name: string, data: string): void {
    super.putClientData(name, data);
    this.batch?.clients.set(name, data);
  }

  override deleteClient(name: string, tombstone?: { until: number | null }): void {
    this.batch = null;
    super.deleteClient(name, tombstone);
  }

  override getResult(client: string, check: string): ReturnType<SqlStateStore['getResult']> {
    const kept = this.batch?.results.get(pairKey(client, check));
    return kept !== undefined ? this.resultOf(kept ?? undefined) : super.getResult(client, check);
  }

  override getHistory(client: string, check: string): ReturnType<SqlStateStore['getHistory']> {
    const kept = this.batch?.results.get(pairKey(client, check));
    return kept !== undefined ? this.historyOf(kept ?? undefined) : super.getHistory(client, check);
  }

  protected override putResultRow(row: ResultRow): void {
    super.putResultRow(row);
    this.batch?.results.set(pairKey(row.client, row.check_name), row);
  }

  override deleteResult(client: string, check: string): boolean {
    this.batch = null;
    return super.deleteResult(client, check);
  }

  override deleteResultsOfCheck(check: string): void {
    this.batch = null;
    super.deleteResultsOfCheck(check);
  }

  override getEvent(client: string, check: string): Record<string, unknown> | null {
    const kept = this.batch?.events.get(pairKey(client, check));
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    return super.getEvent(client, check);
  }

  protected override putEventData(client: string, check: string, data: string): void {
    super.putEventData(client, check, data);
    this.batch?.events.set(pairKey(client, check), data);
  }

  override deleteEvent(client: string, check: string): boolean {
    const key = pairKey(client, check);
    const kept = this.batch?.events.get(key);
    const removed = super.deleteEvent(client, check);
    if (kept === undefined) return removed;
    this.batch!.events.set(key, null);
    return kept !== null;
  }
}
