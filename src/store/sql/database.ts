// The SQL database the store is written against: the part of better-sqlite3's API it uses, synchronous.
// better-sqlite3's Database is the SQLite side; SyncPostgres (store/postgres/sync-client.ts) the PostgreSQL side.
export type SqlParam = string | number | bigint | null | readonly unknown[] | Readonly<Record<string, unknown>>;

export interface SqlStatement {
  get(...params: SqlParam[]): unknown;
  all(...params: SqlParam[]): unknown[];
  run(...params: SqlParam[]): { changes: number };
}

export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  /** `fn` as one transaction; called inside another, a savepoint. */
  transaction<T>(fn: () => T): () => T;
  readonly inTransaction: boolean;
  readonly open: boolean;
  /** The file path, or the redacted DSN. */
  readonly name: string;
  close(): void;
}
