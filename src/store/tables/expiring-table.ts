import type { SqlDatabase, SqlStatement } from '../sql/database.js';

export interface Expiring<T> {
  readonly key: string;
  readonly value: T;
  /** Epoch milliseconds, or null for never (legacy: a Redis key without TTL). */
  readonly expireAt: number | null;
}

type Row = { key: string; data: string; expire_at: number | null };

/** Seconds left, as Redis TTL reported them; -1 for a row that never expires. */
export function remainingSeconds(row: { expireAt: number | null }, nowMs: number): number {
  return row.expireAt === null ? -1 : Math.round((row.expireAt - nowMs) / 1000);
}

/** A key → JSON table whose rows vanish at `expire_at`, as Redis keys with a TTL did: expired rows are never returned. */
export class ExpiringTable<T> {
  private readonly get$: SqlStatement;
  private readonly put$: SqlStatement;
  private readonly delete$: SqlStatement;
  private readonly list$: SqlStatement;
  private readonly purge$: SqlStatement;
  private readonly all$: SqlStatement;
  /** While on (a group commit on PostgreSQL): every row, read at the first `get`, kept as written; null until read. */
  private snapshot: Map<string, Row> | null = null;
  private snapshotting = false;
  private countUpTo$: SqlStatement | null = null;
  /** The statement reading every row (what a snapshot holds): for a caller reading it with others in one round trip. */
  readonly allSql: string;

  constructor(
    private readonly db: SqlDatabase,
    private readonly table: string,
    key: string,
    data: string,
  ) {
    const columns = `${key} AS key, ${data} AS data, expire_at`;
    this.get$ = db.prepare(`SELECT ${columns} FROM ${table} WHERE ${key} = ? AND (expire_at IS NULL OR expire_at > ?)`);
    this.put$ = db.prepare(
      `INSERT INTO ${table} (${key}, ${data}, expire_at) VALUES (?, ?, ?) ON CONFLICT(${key}) DO UPDATE SET ${data} = excluded.${data}, expire_at = excluded.expire_at`,
    );
    this.delete$ = db.prepare(`DELETE FROM ${table} WHERE ${key} = ? AND (expire_at IS NULL OR expire_at > ?)`);
    this.list$ = db.prepare(`SELECT ${columns} FROM ${table} WHERE expire_at IS NULL OR expire_at > ? ORDER BY ${key}`);
    this.purge$ = db.prepare(`DELETE FROM ${table} WHERE expire_at IS NOT NULL AND expire_at <= ?`);
    this.allSql = `SELECT ${columns} FROM ${table}`;
    this.all$ = db.prepare(this.allSql);
  }

  /** A snapshot (as `snapshotUntilReset`) of rows already read with `allSql`. */
  snapshotFrom(rows: readonly Record<string, unknown>[]): void {
    this.snapshotting = true;
    this.snapshot = new Map((rows as Row[]).map((row) => [row.key, row]));
  }

  private of(row: Row | undefined): Expiring<T> | null {
    return row ? { key: row.key, value: JSON.parse(row.data) as T, expireAt: row.expire_at } : null;
  }

  /** Serves `get` from one read of the table until `resetSnapshot` (a batch's many lookups in one round trip). */
  snapshotUntilReset(): void {
    this.snapshotting = true;
    this.snapshot = null;
  }

  /** A snapshot (as `snapshotUntilReset`), read now, when the table holds at most `rows` rows: one read is then cheaper than a batch's lookups. */
  snapshotWhenAtMost(rows: number): void {
    this.countUpTo$ ??= this.db.prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${this.table} LIMIT ?)`);
    if (Number((this.countUpTo$.get(rows + 1) as { n: number }).n) > rows) return;
    this.snapshotting = true;
    this.snapshot = new Map((this.all$.all() as Row[]).map((row) => [row.key, row]));
  }

  /** True only while a snapshot is held and has no row: no `get` can find anything. */
  get knownEmpty(): boolean {
    return this.snapshotting && this.snapshot !== null && this.snapshot.size === 0;
  }

  resetSnapshot(): void {
    this.snapshotting = false;
    this.snapshot = null;
  }

  get(key: string, now: number): Expiring<T> | null {
    if (this.snapshotting) {
      this.snapshot ??= new Map((this.all$.all() as Row[]).map((row) => [row.key, row]));
      const row = this.snapshot.get(key);
      return row && (row.expire_at === null || row.expire_at > now) ? this.of(row) : null;
    }
    return this.of(this.get$.get(key, now) as Row | undefined);
  }

  put(key: string, value: T, expireAt: number | null): void {
    const data = JSON.stringify(value);
    this.put$.run(key, data, expireAt);
    this.snapshot?.set(key, { key, data, expire_at: expireAt });
  }

  /** True when a live row was removed. */
  delete(key: string, now: number): boolean {
    this.snapshot?.delete(key);
    const removed = this.delete$.run(key, now).changes > 0;
    this.purge$.run(now);
    return removed;
  }

  list(now: number): Expiring<T>[] {
    this.purge$.run(now);
    return (this.list$.all(now) as Row[]).map((row) => this.of(row)!);
  }
}
