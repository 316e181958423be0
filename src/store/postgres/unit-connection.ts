// The connection a group commit's unit of work runs on: its BEGIN with the reads, and its COMMIT, are awaited without
// blocking the thread; what runs between them (the batch's processing) is synchronous, as on SyncPostgres.
import { performance } from 'node:perf_hooks';
import { PostgresQueryError } from './query-error.js';
import { SyncPostgres } from './sync-client.js';
import type { SyncRows } from './sync-worker.js';

export class UnitPostgres extends SyncPostgres {
  /** Opens the unit's transaction with `reads` (statements with their values written in): one round trip, their rows. */
  async beginUnit(reads: readonly string[]): Promise<readonly SyncRows[]> {
    if (this.inTransaction) throw new Error('a unit of work began inside a transaction');
    try {
      const reply = await this.requestAsync({ sql: ['BEGIN', ...reads].join(';\n'), simple: true, multi: true });
      this.depth = 1;
      return (reply.results ?? []).slice(1);
    } catch (error) {
      // BEGIN ran and a read failed: the transaction is open and aborted on the connection.
      if (error instanceof PostgresQueryError) await this.requestAsync({ sql: 'ROLLBACK', simple: true, rollback: true }).catch(() => undefined);
      throw error;
    }
  }

  /** COMMIT with the writes deferred before it (one round trip); a failure of either is the whole unit's. */
  async commitUnit(): Promise<void> {
    const started = performance.now();
    try {
      const { command } = await this.requestAsync({ sql: 'COMMIT', simple: true });
      this.onCommit?.(performance.now() - started);
      if (command === 'ROLLBACK') throw new PostgresQueryError('the transaction was aborted by an earlier error and rolled back', '25P02', true);
    } catch (error) {
      if (this.inTransaction) await this.rollbackUnit();
      throw error instanceof PostgresQueryError && !error.transactionLost ? new PostgresQueryError(error.message, error.code, true) : error;
    } finally {
      this.depth = 0;
      this.changesOf.clear();
    }
  }

  /** Ends the unit's transaction without its writes. */
  async rollbackUnit(): Promise<void> {
    if (!this.inTransaction) return;
    this.depth = 0;
    this.changesOf.clear();
    await this.requestAsync({ sql: 'ROLLBACK', simple: true, rollback: true }).catch(() => undefined);
  }
}
