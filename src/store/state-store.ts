import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { SqlDatabase } from './sql/database.js';
import type { ExpiringTable } from './tables/expiring-table.js';
import type { AggregateTable } from './tables/aggregate-members.js';
import type { ResourceTables } from './tables/v2-resources.js';
import type { Outbox } from './tables/bridge-outbox.js';
import type { ResultIds } from './tables/result-ids.js';
import type { RehearsalHistory } from './tables/rehearsal-history.js';
import type { DatastoreWatch } from './datastore-watch.js';

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

/** A result failed in a group commit's run without savepoints: the whole group runs again, with them. */
export class GroupRetry extends Error {
  constructor(readonly failure: unknown) {
    super('a result failed: the group commit runs again with a savepoint per result', { cause: failure });
  }
}

/**
 * The state store: one SQLite file (WAL) by default (sqlite/sqlite-state-store.ts), or the same tables on PostgreSQL
 * shared by several servers (postgres/postgres-state-store.ts); migrated on open, a newer schema is refused and never touched.
 */
/**
 * The v2 rows a group commit will read, named before it runs (a prediction: a row not named is read when asked for).
 * A store that reads a batch's rows at once reads these with them.
 */
export interface V2Keys {
  readonly events: readonly (readonly [namespace: string, entity: string, check: string])[];
  readonly entities: readonly (readonly [namespace: string, name: string])[];
}

/** What a unit of work reads before it runs: legacy client/check pairs (with their clients), more clients, v2 rows. */
export interface UnitKeys {
  readonly pairs: readonly (readonly [client: string, check: string])[];
  readonly clients?: readonly string[];
  readonly v2?: V2Keys;
}

export interface StateStore {
  /** Which database holds the state. */
  readonly engine: 'sqlite' | 'postgres';
  readonly db: SqlDatabase;
  /** The SQLite handle for what only SQLite has (pragmas, quota, WAL checkpoints); null on PostgreSQL. */
  readonly sqlite: Database.Database | null;
  /** The schema version the store had when opened (lower than `schemaVersion()` after an in-place migration). */
  readonly openedAtVersion: number;
  /** Silence entries by id (`sub:check`), with the legacy expiry. */
  readonly silences: ExpiringTable<Record<string, unknown>>;
  readonly stashes: ExpiringTable<unknown>;
  readonly aggregates: AggregateTable;
  /** The v2 API's tables. */
  readonly resources: ResourceTables;
  /** The bridge's outbox and dead letters. */
  readonly outbox: Outbox;
  /** The ids of results handled lately: a re-sent copy is recognised. */
  readonly resultIds: ResultIds;
  /** The migration rehearsal's history. */
  readonly rehearsal: RehearsalHistory;

  /** Why the store cannot be reached now, or '' (`/health`'s Err); never waits long on a network. */
  problem(): string;
  /** The datastore alarm for `/health`: set while the quota leaves no room to grow. */
  alarm(): string | null;
  /** A write error as callers should see it: over the quota, a clear CB_STORE_QUOTA (and the alarm raised). */
  failure(error: unknown): unknown;
  schemaVersion(): number;
  /**
   * Inside a transaction, before reading the results and events of these client/check pairs to write them back:
   * another server doing the same waits until this transaction ends, so no update is lost. `v2`: the v2 rows the
   * batch reads besides.
   */
  lockResults(pairs: readonly (readonly [client: string, check: string])[], v2?: V2Keys): void;
  /** Serialises writes to these clients' rows between servers (a keepalive against a result's just-in-time client). */
  lockClients(names: readonly string[]): void;
  /** Runs `fn` in one transaction: the unit of group commit; called inside another, it is a savepoint. */
  transaction<T>(fn: () => T): T;
  /**
   * The intake's group commit: a first run that does not pay for a savepoint per result; should one result fail,
   * `retrying` undoes what the run kept outside the database and `fn` runs again so that only the failing one fails.
   */
  groupCommit<T>(fn: () => T, retrying: () => void): T;
  /**
   * A group commit as one unit of work: the rows `keys` name are read (and locked between servers), `fn` runs over them
   * synchronously, its writes commit together. SQLite runs it at once; PostgreSQL awaits its round trips without
   * blocking the thread, beside other units of other rows. `retrying` as for `groupCommit`.
   */
  unit<T>(keys: UnitKeys, fn: () => T, retrying: () => void): Promise<T>;
  /**
   * Reads the rows `keys` name without holding the thread on the network, then runs `fn` (reads only) over them: what
   * a door asks of the store before it answers (an agent's handshake). SQLite answers at once.
   */
  read<T>(keys: UnitKeys, fn: () => T): Promise<T>;
  /** These rows will be a unit's soon: a store whose units wait for a connection reads them meanwhile (`keysOf` asked only then). */
  readAhead(keysOf: () => V2Keys): void;
  /** How many units may be in flight together (of disjoint rows; one that shares a row waits for the earlier one). */
  readonly unitsInFlight: number;
  /** One result's writes inside a group commit, undone alone when `fn` throws. */
  savepoint<T>(fn: () => T): T;

  getClient(name: string): Record<string, unknown> | null;
  /** Legacy clients and v2 entities, each name once, counted up to `upTo`: what the entity limit counts. */
  countEntities(upTo: number, legacyNamespace: string): number;
  /** Whether a v2 entity of this name exists in the legacy namespace (a legacy client by that name is then not a new entity). */
  hasV2Entity(name: string, legacyNamespace: string): boolean;
  putClient(client: Record<string, unknown>): void;
  /** Removes a client with its results and events; `tombstone` keeps an invalidated signature (API invalidate). */
  deleteClient(name: string, tombstone?: { until: number | null }): void;
  listClients(): Record<string, unknown>[];
  getResult(client: string, check: string): StoredResult | null;
  /** What a new result carries on from the last one: its history and last OK time, without parsing the check. */
  getHistory(client: string, check: string): Pick<StoredResult, 'history' | 'lastOk'> | null;
  putResult(client: string, check: Record<string, unknown>, history: readonly HistoryEntry[], lastOk: number | null): void;
  deleteResult(client: string, check: string): boolean;
  deleteResultsOfCheck(check: string): void;
  listResults(client?: string): StoredResult[];
  /** Every stored result's check, one row at a time and without its history: a pass over all results stays small. */
  resultChecks(): Generator<{ client: string; check: Record<string, unknown> }>;
  getEvent(client: string, check: string): Record<string, unknown> | null;
  putEvent(client: string, check: string, event: Record<string, unknown>): void;
  deleteEvent(client: string, check: string): boolean;
  listEvents(client?: string): Record<string, unknown>[];

  /** The daemon's store checkpoints its WAL on a worker thread, not in the intake's commits (SQLite); `onFailure` hears why one failed. */
  checkpointInBackground(onFailure?: (message: string) => void): void;
  /** From now on, slow reads and log syncs are reported to `watch`. */
  watchDatastore(watch: DatastoreWatch): void;
  /** Starts what a daemon's store does in the background: on PostgreSQL, hearing other servers' changes (caches on). */
  listenForChanges(logger: Logger): Promise<void>;
  close(): void;
}
