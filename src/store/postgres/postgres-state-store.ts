import { CheckbridgeError } from '../../errors.js';
import { daemonEnvironment } from '../../config/index.js';
import type { SqlStatement } from '../sql/database.js';
import type { V2Keys } from '../state-store.js';
import { SqlStateStore, type ResultRow, type Row } from '../sql/sql-state-store.js';
import { PostgresQueryError, SyncPostgres } from './sync-client.js';
import { pgEnvironment, poolConfigOf, redactDsn, type PgEnvironment } from './connection.js';
import type { Logger } from 'pino';
import { SharedResourceTables } from './shared-resources.js';
import { ChangeListener } from './change-listener.js';
import { STORE_SCHEMA, migrateStore, storeSchemaVersion } from './store-schema.js';
import { BatchRows, pairKey, v2Key } from './batch-rows.js';
import { BatchedResourceTables } from './batched-resources.js';
import { SetWrites } from './set-writes.js';
import { guarded } from './guarded-connection.js';

/**
 * The state store several servers share: the same tables on PostgreSQL. Writers of the same rows queue on advisory
 * locks, and a group commit reads its rows once for the whole batch (BatchRows) and sends its writes set-based at COMMIT
 * (SetWrites). No quota: the database server bounds its own size.
 */
export class PostgresStateStore extends SqlStateStore {
  readonly engine = 'postgres' as const;
  readonly sqlite = null;
  private readonly locks: Record<'lockResults' | 'batchClients' | 'batchResults' | 'batchEvents' | 'batchV2Events' | 'batchV2Entities', SqlStatement>;
  private readonly setWrites: SetWrites;
  /** A group commit's rows: what `lockResults` locked and the v2 rows named with it, a statement per table (see BatchRows). */
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
    const self: { store?: PostgresStateStore } = {};
    const access = { rows: () => self.store?.batch ?? null, buffering: () => self.store?.buffering() ?? false };
    super(
      guarded(connection, () => self.store?.sendPending()),
      { openedAtVersion, shared: true, resourceTables: (db) => new BatchedResourceTables(db, access) },
    );
    self.store = this;
    this.setWrites = new SetWrites(connection);
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
      batchV2Events: prepare(
        'SELECT v.namespace, v.entity, v.check_name, v.data FROM v2_events v JOIN unnest(?::text[], ?::text[], ?::text[]) AS k (namespace, entity, check_name) ' +
          'ON v.namespace = k.namespace AND v.entity = k.entity AND v.check_name = k.check_name',
      ),
      batchV2Entities: prepare(
        'SELECT e.namespace, e.name, e.data FROM v2_entities e JOIN unnest(?::text[], ?::text[]) AS k (namespace, name) ON e.namespace = k.namespace AND e.name = k.name',
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

  lockResults(pairs: readonly (readonly [client: string, check: string])[], v2: V2Keys = { events: [], entities: [] }): void {
    // Each client's own key too: a keepalive or another server's just-in-time client waits instead of overwriting,
    // and two batches that share an entity queue on it before touching its rows (no deadlock between servers).
    if (pairs.length > 0) this.locks.lockResults.all([...pairs.map(([client, check]) => `${client}/${check}`), ...pairs.map(([client]) => client)]);
    if (this.db.inTransaction && pairs.length + v2.events.length + v2.entities.length > 0) this.readBatch(pairs, v2);
  }

  lockClients(names: readonly string[]): void {
    if (names.length === 0) return;
    this.locks.lockResults.all([...names]);
  }

  private readBatch(pairs: readonly (readonly [string, string])[], v2: V2Keys): void {
    this.sendPending();
    const batch = new BatchRows();
    const clients = pairs.map(([client]) => client);
    const checks = pairs.map(([, check]) => check);
    for (const name of clients) batch.clients.set(name, null);
    for (const [client, check] of pairs) {
      batch.results.set(pairKey(client, check), null);
      batch.events.set(pairKey(client, check), null);
    }
    if (pairs.length > 0) {
      for (const row of this.locks.batchClients.all(clients) as Row[]) batch.clients.set(String(row.name), String(row.data));
      for (const row of this.locks.batchResults.all(clients, checks) as Row[]) batch.results.set(pairKey(String(row.client), String(row.check_name)), row);
      for (const row of this.locks.batchEvents.all(clients, checks) as Row[])
        batch.events.set(pairKey(String(row.client), String(row.check_name)), String(row.data));
    }
    this.readV2(batch, v2);
    this.batch = batch;
    this.silences.snapshotUntilReset();
  }

  /** The v2 events and entities `v2` names, each read once (one statement per table) into `batch`. */
  private readV2(batch: BatchRows, { events, entities }: V2Keys): void {
    for (const [ns, entity, check] of events) batch.v2Events.set(v2Key(ns, entity, check), null);
    for (const [ns, name] of entities) batch.v2Entities.set(v2Key(ns, name), null);
    if (events.length > 0) {
      const rows = this.locks.batchV2Events.all(...[0, 1, 2].map((i) => events.map((key) => key[i]!))) as Row[];
      for (const row of rows) batch.v2Events.set(v2Key(String(row.namespace), String(row.entity), String(row.check_name)), String(row.data));
    }
    if (entities.length > 0) {
      const rows = this.locks.batchV2Entities.all(...[0, 1].map((i) => entities.map((key) => key[i]!))) as Row[];
      for (const row of rows) batch.v2Entities.set(v2Key(String(row.namespace), String(row.name)), String(row.data));
    }
  }

  /** Whether writes wait for COMMIT, kept in the batch: a group commit's first run, whose failure reruns it whole. */
  private buffering(): boolean {
    return this.batch !== null && !this.connection.awaitSavepoints && this.connection.inTransaction;
  }

  /** Sends the batch's pending writes as set-based statements (deferred: they travel with the next statement). */
  private sendPending(): void {
    if (this.batch && this.batch.pending.size > 0) this.setWrites.send(this.batch);
  }

  /** Drops what the batch holds, after sending what it has not sent. */
  private dropBatch(): void {
    this.sendPending();
    this.batch = null;
  }

  /**
   * The savepoints of the first run do not wait for their writes (the batch's writes travel together); should a write
   * fail, that run is rolled back whole and `fn` runs again with each savepoint waiting for its writes.
   */
  groupCommit<T>(fn: () => T, retrying: () => void): T {
    this.connection.awaitSavepoints = false;
    try {
      // The batch's writes go as a few set-based statements just before COMMIT, in the same transaction.
      return this.transaction(() => {
        const result = fn();
        this.sendPending();
        return result;
      });
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
    if (this.buffering()) this.batch!.pending.clients.set(name, [name]);
    else super.putClientData(name, data);
    this.batch?.clients.set(name, data);
  }

  override deleteClient(name: string, tombstone?: { until: number | null }): void {
    this.dropBatch();
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
    if (this.buffering()) this.batch!.pending.results.set(pairKey(row.client, row.check_name), [row.client, row.check_name]);
    else super.putResultRow(row);
    this.batch?.results.set(pairKey(row.client, row.check_name), row);
  }

  override deleteResult(client: string, check: string): boolean {
    this.dropBatch();
    return super.deleteResult(client, check);
  }

  override deleteResultsOfCheck(check: string): void {
    this.dropBatch();
    super.deleteResultsOfCheck(check);
  }

  override getEvent(client: string, check: string): Record<string, unknown> | null {
    const kept = this.batch?.events.get(pairKey(client, check));
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    return super.getEvent(client, check);
  }

  protected override putEventData(client: string, check: string, data: string): void {
    if (this.buffering()) this.batch!.pending.events.set(pairKey(client, check), [client, check]);
    else super.putEventData(client, check, data);
    this.batch?.events.set(pairKey(client, check), data);
  }

  override deleteEvent(client: string, check: string): boolean {
    const key = pairKey(client, check);
    const kept = this.batch?.events.get(key);
    if (kept !== undefined && this.buffering()) {
      this.batch!.events.set(key, null);
      this.batch!.pending.events.set(key, [client, check]);
      return kept !== null;
    }
    const removed = super.deleteEvent(client, check);
    if (kept === undefined) return removed;
    this.batch!.events.set(key, null);
    return kept !== null;
  }
}
