import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { SqlDatabase } from './database.js';
import type { HistoryEntry, StateStore, StoredResult, UnitKeys, V2Keys } from '../state-store.js';
import { prepareLegacyStatements, type LegacyStatements } from './legacy-statements.js';
import { ExpiringTable } from '../tables/expiring-table.js';
import { AggregateTable } from '../tables/aggregate-members.js';
import { ResourceTables } from '../tables/v2-resources.js';
import { Outbox } from '../tables/bridge-outbox.js';
import { ResultIds } from '../tables/result-ids.js';
import { RehearsalHistory } from '../tables/rehearsal-history.js';
import { WatchHolder, watchedDatabase, type DatastoreWatch } from '../datastore-watch.js';

export type Row = Record<string, unknown>;

/** A result's row as stored, and as a PostgreSQL group commit keeps it. */
export interface ResultRow extends Row {
  readonly client: string;
  readonly check_name: string;
  readonly data: string;
  readonly history: string;
  readonly last_ok: number | null;
}

export interface SqlStateStoreOptions {
  readonly openedAtVersion: number;
  /** Several servers share the store: what one writes must take effect on the others at once. */
  readonly shared: boolean;
  /** How `fn` runs as one transaction; by default through `db.transaction`. */
  readonly runInTransaction?: (fn: () => unknown) => unknown;
  /** The v2 tables over the store's (timed) connection, when the engine keeps more than the plain tables (caches). */
  readonly resourceTables?: (db: SqlDatabase) => ResourceTables;
}

/** What both engines share: every table, written through the common SqlDatabase (sql/database.ts). */
export abstract class SqlStateStore implements StateStore {
  abstract readonly engine: 'sqlite' | 'postgres';
  abstract readonly sqlite: Database.Database | null;
  readonly db: SqlDatabase;
  readonly openedAtVersion: number;
  readonly silences: ExpiringTable<Record<string, unknown>>;
  readonly stashes: ExpiringTable<unknown>;
  readonly aggregates: AggregateTable;
  readonly resources: ResourceTables;
  readonly outbox: Outbox;
  readonly resultIds: ResultIds;
  readonly rehearsal: RehearsalHistory;
  protected readonly statements: LegacyStatements;
  protected readonly watchHolder = new WatchHolder();
  private readonly runInTransaction: (fn: () => unknown) => unknown;

  protected constructor(db: SqlDatabase, options: SqlStateStoreOptions) {
    // Every statement's reads are timed once a watch is set.
    const watched = watchedDatabase(db, this.watchHolder);
    this.db = watched;
    this.openedAtVersion = options.openedAtVersion;
    this.runInTransaction = options.runInTransaction ?? ((fn) => watched.transaction(fn)());
    this.silences = new ExpiringTable(watched, 'silences', 'id', 'data');
    this.stashes = new ExpiringTable(watched, 'stashes', 'path', 'content');
    this.aggregates = new AggregateTable(watched);
    this.resources = options.resourceTables?.(watched) ?? new ResourceTables(watched, { shared: options.shared });
    this.outbox = new Outbox(watched);
    this.resultIds = new ResultIds(watched, options.shared);
    this.rehearsal = new RehearsalHistory(watched);
    this.statements = prepareLegacyStatements(watched);
  }

  abstract alarm(): string | null;
  abstract failure(error: unknown): unknown;
  abstract schemaVersion(): number;
  abstract lockResults(pairs: readonly (readonly [client: string, check: string])[], v2?: V2Keys): void;
  abstract lockClients(names: readonly string[]): void;
  abstract groupCommit<T>(fn: () => T, retrying: () => void): T;
  abstract checkpointInBackground(onFailure?: (message: string) => void): void;

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

  problem(): string {
    try {
      this.db.prepare('SELECT 1').get();
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  }

  savepoint<T>(fn: () => T): T {
    return this.transaction(fn);
  }

  read<T>(_keys: UnitKeys, fn: () => T): Promise<T> {
    return new Promise((resolve) => resolve(fn()));
  }

  /** Nothing to read ahead: a unit runs at once. */
  readAhead(_keysOf: () => V2Keys): void {}

  /** Run now, one at a time: a unit in flight is already committed. */
  get unitsInFlight(): number {
    return 1;
  }

  /** The unit of work as a group commit run now, its rows locked first (an engine whose round trips block runs so). */
  unit<T>({ pairs, clients = [], v2 }: UnitKeys, fn: () => T, retrying: () => void): Promise<T> {
    try {
      const locked = () => {
        if (pairs.length > 0 || v2) this.lockResults(pairs, v2);
        if (clients.length > 0) this.lockClients(clients);
        return fn();
      };
      return Promise.resolve(this.groupCommit(locked, retrying));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Drops what a group commit kept of its rows outside the database; an engine that keeps none has nothing to drop. */
  protected forgetBatch(): void {}

  getClient(name: string): Record<string, unknown> | null {
    const row = this.statements.getClient.get(name) as Row | undefined;
    return row ? JSON.parse(String(row.data)) : null;
  }

  countEntities(upTo: number, legacyNamespace: string): number {
    // Counting stops at `upTo`: the entity limit only asks whether it is reached, and a full count per new client made a
    // fleet of 50,000 new clients quadratic.
    return Number((this.statements.countEntities.get(legacyNamespace, upTo) as { n: number }).n);
  }

  /** As the resources read it: on PostgreSQL from a group commit's rows when its keys named it (no round trip). */
  hasV2Entity(name: string, legacyNamespace: string): boolean {
    return this.resources.getEntity(legacyNamespace, name) !== null;
  }

  putClient(client: Record<string, unknown>): void {
    this.putClientData(String(client.name), JSON.stringify(client));
  }

  protected putClientData(name: string, data: string): void {
    this.statements.putClient.run(name, data);
  }

  deleteClient(name: string, tombstone?: { until: number | null }): void {
    this.statements.deleteClient.run(name);
    this.statements.deleteResultsOfClient.run(name);
    this.statements.deleteEventsOfClient.run(name);
    if (tombstone) this.putClient({ name, signature: 'invalidated', invalidated: true, invalidated_until: tombstone.until });
  }

  listClients(): Record<string, unknown>[] {
    return (this.statements.listClients.all() as Row[]).map((r) => JSON.parse(String(r.data)));
  }

  protected storedResultOf(row: Row | undefined): StoredResult | null {
    if (!row) return null;
    return {
      client: String(row.client),
      check: JSON.parse(String(row.data)),
      history: JSON.parse(String(row.history)),
      lastOk: (row.last_ok as number | null) ?? null,
    };
  }

  protected historyOf(row: Row | undefined): Pick<StoredResult, 'history' | 'lastOk'> | null {
    return row ? { history: JSON.parse(String(row.history)), lastOk: (row.last_ok as number | null) ?? null } : null;
  }

  getResult(client: string, check: string): StoredResult | null {
    return this.storedResultOf(this.statements.getResult.get(client, check) as Row | undefined);
  }

  getHistory(client: string, check: string): Pick<StoredResult, 'history' | 'lastOk'> | null {
    return this.historyOf(this.statements.getHistory.get(client, check) as Row | undefined);
  }

  putResult(client: string, check: Record<string, unknown>, history: readonly HistoryEntry[], lastOk: number | null): void {
    this.putResultRow({ client, check_name: String(check.name), data: JSON.stringify(check), history: JSON.stringify(history), last_ok: lastOk });
  }

  protected putResultRow(row: ResultRow): void {
    this.statements.putResult.run(row.client, row.check_name, row.data, row.history, row.last_ok);
  }

  deleteResult(client: string, check: string): boolean {
    return this.statements.deleteResult.run(client, check).changes > 0;
  }

  deleteResultsOfCheck(check: string): void {
    this.statements.deleteResultsOfCheck.run(check);
  }

  listResults(client?: string): StoredResult[] {
    const rows = (client === undefined ? this.statements.listResults.all() : this.statements.listResultsOf.all(client)) as Row[];
    return rows.map((r) => this.storedResultOf(r)!);
  }

  *resultChecks(): Generator<{ client: string; check: Record<string, unknown> }> {
    for (const row of this.resultCheckRows()) yield { client: String(row.client), check: JSON.parse(String(row.data)) };
  }

  /** The rows of `resultChecks` (client, data), whole by default. */
  protected resultCheckRows(): Iterable<Row> {
    return this.statements.listResultChecks.all() as Row[];
  }

  getEvent(client: string, check: string): Record<string, unknown> | null {
    const row = this.statements.getEvent.get(client, check) as Row | undefined;
    return row ? JSON.parse(String(row.data)) : null;
  }

  putEvent(client: string, check: string, event: Record<string, unknown>): void {
    this.putEventData(client, check, JSON.stringify(event));
  }

  protected putEventData(client: string, check: string, data: string): void {
    this.statements.putEvent.run(client, check, data);
  }

  deleteEvent(client: string, check: string): boolean {
    return this.statements.deleteEvent.run(client, check).changes > 0;
  }

  listEvents(client?: string): Record<string, unknown>[] {
    const rows = (client === undefined ? this.statements.listEvents.all() : this.statements.listEventsOf.all(client)) as Row[];
    return rows.map((r) => JSON.parse(String(r.data)));
  }

  watchDatastore(watch: DatastoreWatch): void {
    this.watchHolder.watch = watch;
  }

  /** Starts what a daemon's store does in the background (PostgreSQL: hearing other servers' changes); nothing on SQLite. */
  async listenForChanges(_logger: Logger): Promise<void> {}

  close(): void {
    if (this.db.open) this.db.close();
  }
}
