// PostgreSQL behind the store's synchronous SqlDatabase: a worker thread owns the connection, the caller blocks on Atomics.wait
// for the worker's answer (or awaits it: unit-connection.ts, where the connection runs on the main thread instead);
// deferred writes go in the message of the statement after them.
import { performance } from 'node:perf_hooks';
import { CheckbridgeError } from '../../errors.js';
import type { SqlDatabase, SqlParam, SqlStatement } from '../sql/database.js';
import { bind, inline, toPositional } from './placeholders.js';
import { BlockedRead, PostgresQueryError } from './query-error.js';
import { plainRead } from './answered-reads.js';
import { LinkedConnection } from './linked-connection.js';

export class SyncPostgres extends LinkedConnection implements SqlDatabase {
  /** What ended the open transaction before its end (caught by code inside it or not): its COMMIT must not pass for one. */
  protected abandonedBy: Error | null = null;
  /** Whether nested transactions are savepoints waiting for their writes (off: none, any failure is `transactionLost`). */
  awaitSavepoints = true;

  private read(sql: string, params: unknown[]): Record<string, unknown>[] {
    return this.canBlock ? this.request({ sql, params }).rows : this.readWithoutBlocking(sql, params);
  }

  /** A read on a connection that cannot block: refused (a unit's connection may have it answered ahead). */
  protected readWithoutBlocking(sql: string, params: unknown[]): Record<string, unknown>[] {
    throw this.cannotBlock({ sql, params });
  }

  /**
   * A statement that would block on a connection that cannot: inside a transaction, that transaction cannot go on here
   * (its caller reads a plain SELECT outside it and runs it again, or runs it where statements may block); outside one, refused.
   */
  protected override cannotBlock(read?: { sql: string; params: unknown[] }): Error {
    const message = `${this.name}: a statement cannot wait here without blocking the thread`;
    if (this.depth === 0) return new CheckbridgeError('CB_STORE_UNAVAILABLE', message);
    this.abandon();
    return (this.abandonedBy = new BlockedRead(message, read ? plainRead(read) : null));
  }

  // Within the savepoint that made it when each waits for its writes; otherwise later savepoints' writes were dropped
  // with it, and only the whole transaction can be undone.
  protected override transactionEnded(error: PostgresQueryError): Error | null {
    if (this.awaitSavepoints || this.depth === 0) return null;
    this.abandon();
    return (this.abandonedBy = new PostgresQueryError(error.message, error.code, true));
  }

  /** Rolls the whole transaction back; the transaction functions around see it ended (`epoch`). */
  private abandon(): void {
    this.depth = 0;
    this.epoch++;
    this.queued = [];
    if (!this.canBlock) {
      // Sent after whatever is in flight: the connection's next transaction starts after it.
      this.requestAsync({ sql: 'ROLLBACK', simple: true, rollback: true }).catch(() => undefined);
      return;
    }
    try {
      this.request({ sql: 'ROLLBACK', simple: true, rollback: true });
    } catch {
      // Gone with the connection, if that is what failed.
    }
  }

  /** Statements without parameters, several allowed (schema steps, transaction control). */
  exec(sql: string): void {
    this.request({ sql, simple: true });
  }

  prepare(sql: string): SqlStatement {
    const positional = toPositional(sql);
    return {
      get: (...params: SqlParam[]) => this.read(positional.text, bind(positional, params))[0],
      all: (...params: SqlParam[]) => this.read(positional.text, bind(positional, params)),
      run: (...params: SqlParam[]) => {
        const values = bind(positional, params);
        const text = this.depth > 0 ? inline(positional, values) : null;
        if (text === null) return { changes: this.request({ sql: positional.text, params: values }).rowCount };
        const id = this.defer(text);
        const changesOf = this.changesOf;
        const settle = () => this.request({ sql: '', barrier: true });
        return {
          get changes(): number {
            if (!changesOf.has(id)) settle();
            return changesOf.get(id) ?? 0;
          },
        };
      },
    };
  }

  /** COMMIT, timed: the server's WAL flush is this store's log sync. Returns the command tag. */
  private commit(): string | undefined {
    const started = performance.now();
    const command = this.request({ sql: 'COMMIT', simple: true }).command;
    this.onCommit?.(performance.now() - started);
    return command;
  }
  /** Hears each COMMIT's duration (ms). */
  onCommit: ((ms: number) => void) | null = null;

  /** A transaction's control statement: deferred inside one (savepoints), waited for otherwise (BEGIN, COMMIT, ROLLBACK). */
  private control(sql: string): void {
    if (this.depth > 0) this.defer(sql);
    else this.exec(sql);
  }

  transaction<T>(fn: () => T): () => T {
    return () => {
      const depth = this.depth;
      const epoch = this.epoch;
      // Savepoints that would not wait for their writes are not made: a failure inside ends the whole transaction.
      const savepoint = depth > 0 && this.awaitSavepoints;
      if (depth === 0) this.exec('BEGIN');
      else if (savepoint) this.control(`SAVEPOINT s${depth}`);
      this.depth = depth + 1;
      let result: T;
      try {
        result = fn();
        if (savepoint) {
          this.control(`RELEASE SAVEPOINT s${depth}`);
          this.request({ sql: '', barrier: true });
        }
        // COMMIT of a transaction a caught error aborted answers ROLLBACK: that is a failure, not a commit.
        else if (depth === 0 && this.commit() === 'ROLLBACK')
          throw new PostgresQueryError('the transaction was aborted by an earlier error and rolled back', '25P02');
      } catch (error) {
        if (depth > 0 && !savepoint) {
          if (this.epoch !== epoch) throw error;
          this.abandon();
          throw error instanceof PostgresQueryError && error.transactionLost
            ? error
            : new PostgresQueryError((error as Error).message, (error as { code?: string }).code ?? null, true);
        }
        this.undo(depth, epoch);
        throw error;
      } finally {
        if (depth === 0) this.changesOf.clear();
      }
      this.depth = depth;
      return result;
    };
  }

  private undo(depth: number, epoch: number): void {
    if (this.epoch !== epoch) return;
    this.depth = depth;
    try {
      // Runs even after a deferred write failed (the worker drops other statements until then).
      this.request({ sql: depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT s${depth}; RELEASE SAVEPOINT s${depth}`, simple: true, rollback: true });
    } catch {
      // The error that ended the transaction is the one to report; a lost connection has rolled it back already.
    }
  }
}
