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
