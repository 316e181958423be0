// PostgreSQL behind the store's synchronous SqlDatabase: a worker thread owns the connection, the caller blocks on Atomics.wait
// for the worker's answer (or awaits it: unit-connection.ts); deferred writes go in the message of the statement after them.
import { MessageChannel, Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { CheckbridgeError } from '../../errors.js';
import type { SqlDatabase, SqlParam, SqlStatement } from '../sql/database.js';
import { bind, inline, toPositional } from './placeholders.js';
import type { PgEnvironment } from './connection.js';
import { PostgresQueryError } from './query-error.js';
import { ReplyPort, flagMoved, waitForFlag } from './reply-port.js';
import type { SyncReply, SyncRequest, SyncRows } from './sync-worker.js';

/** A statement the server does not answer within this long fails (and the connection is replaced); never a hang. */
const QUERY_TIMEOUT_MS = 15_000;
const WAIT_GRACE_MS = 5_000;
const RECONNECT_WAIT_MS = 1_000; // the first statement after a loss waits this long for the worker's reconnection

type Rows = SyncRows & { readonly results?: readonly SyncRows[] };

export class SyncPostgres implements SqlDatabase {
  /** The id of the worker's latest answer, then whether it is disconnected; new per worker (a dead one cannot write it). */
  private flag = new Int32Array(new SharedArrayBuffer(8));
  /** Why the connection was lost: what every statement refused until the worker has connected again says. */
  private lostBecause = '';
  /** Whether a statement has already waited for the reconnection since the connection was lost. */
  private waitedForReconnect = false;
  private worker!: Worker;
  private replies!: ReplyPort;
  private nextId = 0;
  protected depth = 0;
  /** How long a caller blocks for an answer before the connection is given up (default: query timeout and grace). */
  protected blockingWaitMs: number | null = null;
  /** Asked while a caller blocks (the time it has waited): a reason to give the statement up now, or null. */
  giveUp: ((waitedMs: number) => string | null) | null = null;
  /** Bumped when the connection is replaced: its transaction went with it. */
  private epoch = 0;
  private closed = false;
  /** Deferred writes not yet posted: they go in one message with the next request (which then never overtakes them). */
  private queued: SyncRequest[] = [];
  /** Rows changed by each deferred write of the open transaction, as the worker reported them. */
  protected readonly changesOf = new Map<number, number>();
  /** Whether nested transactions are savepoints waiting for their writes (off: none, any failure is `transactionLost`). */
  awaitSavepoints = true;

  constructor(
    private readonly dsn: string,
    private readonly env: PgEnvironment,
    /** The redacted DSN: what errors and logs name. */
    readonly name: string,
    private readonly searchPath: string,
    private readonly timeoutMs = QUERY_TIMEOUT_MS,
  ) {
    this.spawn();
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Why the connection is lost while the worker connects again, or null. */
  get lost(): string | null {
    return Atomics.load(this.flag, 1) === 1 ? this.lostBecause : null;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  private spawn(): void {
    this.flag = new Int32Array(new SharedArrayBuffer(8));
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(new URL('./sync-worker.js', import.meta.url), {
      workerData: { dsn: this.dsn, env: this.env, flag: this.flag.buffer, port: port2, queryTimeoutMs: this.timeoutMs, searchPath: this.searchPath },
      transferList: [port2],
    });
    this.worker.unref();
    this.replies = new ReplyPort(port1);
  }

  private unavailable(detail: string): CheckbridgeError {
    // The transaction they belonged to is gone with the connection.
    this.queued = [];
    this.depth = 0;
    this.epoch++;
    return new CheckbridgeError('CB_STORE_UNAVAILABLE', `${this.name}: ${detail}`);
  }

  private request(request: Omit<SyncRequest, 'id'>): Rows {
    // Lost: refused at once while the worker connects again, not each statement waiting out a connect timeout.
    if (Atomics.load(this.flag, 1) === 1 && !request.close && !this.closed && !this.reconnected())
      throw this.unavailable(`${this.lostBecause} (connecting again in the background)`);
    return this.settle(this.awaitReply(this.post(request)));
  }

  /** A statement answered without blocking the thread (a unit's BEGIN with its reads, its COMMIT); refused at once while lost. */
  async requestAsync(request: Omit<SyncRequest, 'id'>): Promise<Rows> {
    if (Atomics.load(this.flag, 1) === 1 && !this.closed) throw this.unavailable(`${this.lostBecause} (connecting again in the background)`);
    const id = this.post(request);
    this.replies.awaited.add(id);
    try {
      return this.settle(await this.awaitReplyAsync(id));
    } finally {
      this.replies.awaited.delete(id);
    }
  }

  private settle(reply: SyncReply): Rows {
    for (const [write, changes] of reply.changes) this.changesOf.set(write, changes);
    if ('error' in reply) {
      if (reply.error.unavailable) {
        this.lostBecause = reply.error.message;
        this.waitedForReconnect = false;
        throw this.unavailable(reply.error.message);
      }
      // A deferred write's failure comes back here: within the savepoint that made it when each waits for its writes;
      // otherwise later savepoints' writes were dropped with it, and only the whole transaction can be undone.
      if (reply.error.deferred && !this.awaitSavepoints && this.depth > 0) {
        this.abandon();
        throw new PostgresQueryError(reply.error.message, reply.error.code, true);
      }
      throw new PostgresQueryError(reply.error.message, reply.error.code);
    }
    return reply;
  }

  /** Once per loss, waits up to `RECONNECT_WAIT_MS` for the worker to connect again: a dropped session comes back at once. */
  private reconnected(): boolean {
    if (this.waitedForReconnect) return false;
    this.waitedForReconnect = true;
    Atomics.wait(this.flag, 1, 1, RECONNECT_WAIT_MS);
    return Atomics.load(this.flag, 1) === 0;
  }

  private post(request: Omit<SyncRequest, 'id'>): number {
    const id = this.newId();
    const before = this.queued;
    this.queued = [];
    this.replies.port.postMessage({ ...request, id, inTransaction: this.depth > 0, ...(before.length > 0 ? { before } : {}) });
    return id;
  }

  private newId(): number {
    if (this.closed) throw new CheckbridgeError('CB_STORE_UNAVAILABLE', `${this.name}: the store is closed`);
    // Ids wrap within the flag's int32, never 0 (a new flag's value).
    return (this.nextId = (this.nextId % 0x7fffffff) + 1);
  }

  /** Rolls the whole transaction back; the transaction functions around see it ended (`epoch`). */
  private abandon(): void {
    this.depth = 0;
    this.epoch++;
    try {
      this.request({ sql: 'ROLLBACK', simple: true, rollback: true });
    } catch {
      // Gone with the connection, if that is what failed.
    }
  }

  /** Inside a transaction, a write nobody waits for: sent with the next ones; its failure answers the next statement. */
  protected defer(sql: string): number {
    const id = this.newId();
    this.queued.push({ sql, deferred: true, id, inTransaction: this.depth > 0 });
    return id;
  }

  /** Blocks until the worker has posted reply `id` (the flag holds the id of its latest reply), then takes it off the port. */
  private awaitReply(id: number): SyncReply {
    const waitMs = this.blockingWaitMs ?? this.timeoutMs + WAIT_GRACE_MS;
    const givenUp = waitForFlag(this.flag, id, waitMs, this.giveUp);
    if (givenUp !== null) throw this.replaced(givenUp);
    const reply = this.replies.take(id);
    if (!reply) throw this.unavailable(`the answer to statement ${id} was not on the port`);
    return reply;
  }

  /** As `awaitReply`, the thread free meanwhile (Atomics.waitAsync on the same flag). */
  protected async awaitReplyAsync(id: number): Promise<SyncReply> {
    const [deadline, flag] = [Date.now() + this.timeoutMs + WAIT_GRACE_MS, this.flag];
    for (;;) {
      const [seen, reply] = [Atomics.load(flag, 0), this.replies.take(id)];
      if (reply) return reply;
      const left = deadline - Date.now();
      if (flag !== this.flag) throw this.unavailable('the connection was replaced while a statement waited');
      if (left <= 0) throw this.replaced(`no answer within ${(this.timeoutMs + WAIT_GRACE_MS) / 1000} s`);
      await flagMoved(flag, seen, left);
    }
  }

  /** No answer within the deadline: the worker is replaced (its statement may hang on a dead network). */
  private replaced(why: string): CheckbridgeError {
    void this.worker.terminate();
    this.spawn();
    return this.unavailable(why);
  }

  /** Statements without parameters, several allowed (schema steps, transaction control). */
  exec(sql: string): void {
    this.request({ sql, simple: true });
  }

  prepare(sql: string): SqlStatement {
    const positional = toPositional(sql);
    return {
      get: (...params: SqlParam[]) => this.request({ sql: positional.text, params: bind(positional, params) }).rows[0],
      all: (...params: SqlParam[]) => this.request({ sql: positional.text, params: bind(positional, params) }).rows,
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

  close(): void {
    if (this.closed) return;
    try {
      this.request({ sql: '', close: true });
    } catch {
      // Closing a connection that is already gone.
    }
    this.closed = true;
    void this.worker.terminate();
  }
}
