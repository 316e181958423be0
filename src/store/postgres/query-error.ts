// A PostgreSQL statement's failure as the store's callers see it.
/** A PostgreSQL error as the server sent it: its message and SQLSTATE code. */
export class PostgresQueryError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    /** A deferred write's failure that ended the whole transaction (see `awaitSavepoints`). */
    readonly transactionLost = false,
  ) {
    super(message);
    this.name = 'PostgresQueryError';
  }
}

/** A read a transaction needed that its connection cannot wait for without blocking the thread: the transaction is lost. */
export class BlockedRead extends PostgresQueryError {
  constructor(
    message: string,
    /** The read, when it may be answered from outside the transaction (a plain SELECT): read it so, then run again. */
    readonly read: { readonly sql: string; readonly params: readonly unknown[] } | null,
  ) {
    super(message, null, true);
    this.name = 'BlockedRead';
  }
}
