import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CheckbridgeError } from '../../errors.js';
import { GroupRetry } from '../state-store.js';
import { SqlStateStore, type Row } from '../sql/sql-state-store.js';
import { MIGRATIONS, SCHEMA_VERSION, pendingMigrations } from './migrations.js';
import { Checkpointer } from './checkpointer.js';
import { DEFAULT_STORE_QUOTA, applyQuota, diskAlarm, quotaAlarm, quotaFailure, usedBytes } from './quota.js';
import { holdExclusively } from './exclusive-lock.js';

const NEW_PAGE_SIZE = 8192;
// Groups of at least this many results read the silences table once rather than looking up each result's entries.
const SNAPSHOT_GROUP = 16;

export interface SqliteOpenOptions {
  readonly upgrade?: boolean;
  readonly quotaBytes?: number;
  readonly exclusive?: boolean;
}

/** The embedded state store: one SQLite file in WAL mode, bounded by a quota; one writer at a time. */
export class SqliteStateStore extends SqlStateStore {
  readonly engine = 'sqlite' as const;
  /** The size in use when a write was last refused over the quota: the alarm holds until the store shrinks below it. */
  private refusedAt: number | null = null;
  /** A write was refused by a full disk (not the quota): the alarm holds while the disk is still nearly full. */
  private diskFull = false;
  /** Set during the first run of a group commit: `savepoint` then takes none. */
  private optimistic = false;
  private checkpointer: Checkpointer | null = null;

  private constructor(
    readonly sqlite: Database.Database,
    /** The maximum size in bytes (4 GB by default). */
    readonly quotaBytes: number,
    openedAtVersion: number,
  ) {
    // One wrapper for every call: better-sqlite3 builds four functions per `db.transaction`, a cost on every group commit.
    super(sqlite, { openedAtVersion, shared: false, runInTransaction: sqlite.transaction((fn: () => unknown) => fn()) });
  }

  /**
   * Opens (creating) the store and applies pending migrations when every one is additive; `upgrade` also applies
   * the others (only `checkbridge upgrade` passes it, after a backup). `quotaBytes` bounds the file.
   * `exclusive` (the offline commands) refuses a store a daemon holds open, and keeps any daemon out until closed.
   */
  static open(path: string, options: SqliteOpenOptions = {}): SqliteStateStore {
    const db = openFile(path, options.exclusive === true);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new CheckbridgeError('CB_STORE_NEWER', `${path} has schema version ${version}, this binary knows ${SCHEMA_VERSION}`);
    }
    const pending = pendingMigrations(version);
    if (version > 0 && pending.needsUpgradeCommand && !options.upgrade) {
      db.close();
      throw new CheckbridgeError(
        'CB_STORE_UPGRADE',
        `${path} has schema version ${version} and this binary needs ${SCHEMA_VERSION}: run \`checkbridge upgrade --state-dir ${dirname(path)}\` (it backs the store up first)`,
      );
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
    return new SqliteStateStore(db, quotaBytes, version);
  }

  alarm(): string | null {
    const disk = this.diskFull ? diskAlarm(this.sqlite.name) : null;
    if (disk !== null) return disk;
    this.diskFull = false;
    const alarm = quotaAlarm(this.sqlite, this.quotaBytes, this.refusedAt);
    if (alarm === null) this.refusedAt = null;
    return alarm;
  }

  failure(error: unknown): unknown {
    const mapped = quotaFailure(error, this.quotaBytes);
    if (mapped === error || !this.sqlite.open) return mapped;
    // SQLite gives one code for both: a nearly full filesystem says which it was.
    if (this.sqlite.name !== ':memory:' && diskAlarm(this.sqlite.name) !== null) this.diskFull = true;
    else this.refusedAt = usedBytes(this.sqlite);
    return mapped;
  }

  schemaVersion(): number {
    return this.sqlite.pragma('user_version', { simple: true }) as number;
  }

  // SQLite has one writer at a time already: nothing to lock between writers. A group's silence lookups (three per
  // result) come from one read of the table while it is small beside them; the snapshot ends with the transaction.
  lockResults(pairs: readonly (readonly [client: string, check: string])[]): void {
    if (pairs.length >= SNAPSHOT_GROUP) this.silences.snapshotWhenAtMost(3 * pairs.length);
  }

  protected override forgetBatch(): void {
    this.silences.resetSnapshot();
  }

  lockClients(_names: readonly string[]): void {}

  groupCommit<T>(fn: () => T, retrying: () => void): T {
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

  /** In the first run of a group commit there is no savepoint: a throw there becomes a GroupRetry, which rolls the group back to run again. */
  override savepoint<T>(fn: () => T): T {
    if (!this.optimistic) return this.transaction(fn);
    try {
      return fn();
    } catch (error) {
      throw new GroupRetry(error);
    }
  }

  // SQLite steps through the rows rather than reading them all.
  protected override resultCheckRows(): Iterable<Row> {
    return (this.statements.listResultChecks as unknown as Database.Statement).iterate() as IterableIterator<Row>;
  }

  checkpointInBackground(onFailure?: (message: string) => void): void {
    if (!this.checkpointer && this.sqlite.name !== ':memory:')
      this.checkpointer = new Checkpointer(this.sqlite, (ms) => this.watchHolder.sync(ms, 'WAL checkpoint'), onFailure);
  }

  override close(): void {
    this.checkpointer?.stop();
    this.checkpointer = null;
    super.close();
  }
}

/** The file opened with its owner's permissions only, or a CB_STORE_OPEN error. */
function openFile(path: string, exclusive: boolean): Database.Database {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const db = new Database(path);
    if (exclusive) holdExclusively(db, path);
    // The store holds password hashes, the token signing key and provider credentials: its owner's eyes only.
    // SQLite gives the WAL and shared-memory files the database file's mode.
    if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
    return db;
  } catch (error) {
    if (error instanceof CheckbridgeError) throw error;
    throw new CheckbridgeError('CB_STORE_OPEN', `${path}: ${(error as Error).message}`);
  }
}
