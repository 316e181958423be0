// The connection a group commit's unit of work runs on: its BEGIN with the reads, and its COMMIT, are awaited without
// blocking the thread; what runs between them (the batch's processing) is synchronous, its writes deferred to the COMMIT.
// A daemon's runs on the main thread: a unit's processing that would wait for a read its keys did not name gives the
// unit up (its store reads it outside and runs it again, or runs it as a blocking group commit), and no round trip pays
// a thread hop. A command's runs in a worker, where such a read blocks, for 750 ms at most.
import { performance } from 'node:perf_hooks';
import type { PgEnvironment } from './connection.js';
import { mainThreadLink } from './main-thread-link.js';
import { AnsweredReads } from './answered-reads.js';
import { PostgresQueryError } from './query-error.js';
import { SyncPostgres } from './sync-client.js';
import type { LinkOf } from './connection-link.js';
import type { SyncRows } from './statement-runner.js';

// The transaction's id as a row's xmin shows it (the low 32 bits of the epoch-extended id).
const XID = 'SELECT (txid_current() % 4294967296)::text AS checkbridge_xid';

// On a connection a worker runs (`linkOf`), a statement a unit's processing waits for holds the event loop: not for longer than this.
const BLOCKING_WAIT_MS = 750;

export class UnitPostgres extends SyncPostgres {
  protected override blockingWaitMs = BLOCKING_WAIT_MS;

  constructor(dsn: string, env: PgEnvironment, name: string, searchPath: string, timeoutMs?: number, linkOf: LinkOf = mainThreadLink) {
    super(dsn, env, name, searchPath, timeoutMs, linkOf);
  }

  /**
   * Opens the unit's transaction with `reads` (statements with their values written in): one round trip, their rows.
   * Nothing to read: no round trip, the BEGIN travels with the unit's writes.
   */
  async beginUnit(reads: readonly string[]): Promise<readonly SyncRows[]> {
    if (this.inTransaction) throw new Error('a unit of work began inside a transaction');
    this.abandonedBy = null;
    if (reads.length === 0) {
      this.depth = 1;
      this.defer('BEGIN');
      return [];
    }
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

  /**
   * COMMIT with the writes deferred before it (one round trip); a failure of either is the whole unit's. Answers the
   * transaction's id: the version (xmin) of every row it wrote (null when the answer did not carry it).
   */
  async commitUnit(): Promise<string | null> {
    const started = performance.now();
    try {
      // Abandoned inside (its ROLLBACK sent): a COMMIT now would answer for a transaction that is gone.
      if (this.depth === 0) throw this.abandonedBy ?? new PostgresQueryError('the unit’s transaction ended before its COMMIT', null, true);
      this.defer(XID);
      const { command, results = [] } = await this.requestAsync({ sql: 'COMMIT', simple: true, multi: true });
      this.onCommit?.(performance.now() - started);
      if (command === 'ROLLBACK') throw new PostgresQueryError('the transaction was aborted by an earlier error and rolled back', '25P02', true);
      const xid = results[results.length - 2]?.rows[0]?.checkbridge_xid;
      return typeof xid === 'string' ? xid : null;
    } catch (error) {
      if (this.inTransaction) await this.rollbackUnit();
      throw error instanceof PostgresQueryError && !error.transactionLost ? new PostgresQueryError(error.message, error.code, true) : error;
    } finally {
      this.depth = 0;
      this.changesOf.clear();
    }
  }

  /** Rows read outside the unit that needed them (it could not wait): its next runs take them (cleared by the store). */
  readonly answeredReads = new AnsweredReads();

  protected override readWithoutBlocking(sql: string, params: unknown[]): Record<string, unknown>[] {
    const answered = this.answeredReads.take({ sql, params });
    if (answered) return answered;
    throw this.cannotBlock({ sql, params });
  }

  /** Connects in the background: a unit's first round trip is not also the connection's handshake. */
  warm(): void {
    this.requestAsync({ sql: 'SELECT 1', simple: true }).catch(() => undefined);
  }

  /** Ends the unit's transaction without its writes. */
  async rollbackUnit(): Promise<void> {
    if (!this.inTransaction) return;
    this.depth = 0;
    this.changesOf.clear();
    await this.requestAsync({ sql: 'ROLLBACK', simple: true, rollback: true }).catch(() => undefined);
  }
}
