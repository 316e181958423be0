// A store connection's statements and their answers over its link (a worker thread, or the main thread): ids,
// deferred writes travelling with the next statement, the deadlines, and the connection lost and replaced.
import { CheckbridgeError } from '../../errors.js';
import type { PgEnvironment } from './connection.js';
import { PostgresQueryError } from './query-error.js';
import { isNoAnswer, workerLink, type Link, type LinkOf, type NoAnswer } from './connection-link.js';
import type { SyncReply, SyncRequest, SyncRows } from './statement-runner.js';

/** A statement the server does not answer within this long fails (and the connection is replaced); never a hang. */
const QUERY_TIMEOUT_MS = 15_000;
const WAIT_GRACE_MS = 5_000;
const RECONNECT_WAIT_MS = 1_000; // the first statement after a loss waits this long for the worker's reconnection

export type Rows = SyncRows & { readonly results?: readonly SyncRows[] };

export abstract class LinkedConnection {
  /** Where statements go and answers come from; replaced with the connection. */
  private link!: Link;
  /** Why the connection was lost: what every statement refused until the worker has connected again says. */
  private lostBecause = '';
  /** Whether a statement has already waited for the reconnection since the connection was lost. */
  private waitedForReconnect = false;
  private nextId = 0;
  protected depth = 0;
  /** Bumped when the connection is replaced: its transaction went with it. */
  protected epoch = 0;
  protected closed = false;
  /** Deferred writes not yet posted: they go in one message with the next request (which then never overtakes them). */
  protected queued: SyncRequest[] = [];
  /** Rows changed by each deferred write of the open transaction, as the connection reported them. */
  protected readonly changesOf = new Map<number, number>();
  /** How long a caller blocks for an answer before the connection is given up (default: query timeout and grace). */
  protected blockingWaitMs: number | null = null;
  /** Asked while a caller blocks (the time it has waited): a reason to give the statement up now, or null. */
  giveUp: ((waitedMs: number) => string | null) | null = null;

  constructor(
    private readonly dsn: string,
    private readonly env: PgEnvironment,
    /** The redacted DSN: what errors and logs name. */
    readonly name: string,
    private readonly searchPath: string,
    private readonly timeoutMs = QUERY_TIMEOUT_MS,
    private readonly linkOf: LinkOf = workerLink,
  ) {
    this.spawn();
  }

  /** A statement whose answer this connection cannot block for (it runs on the main thread). */
  protected abstract cannotBlock(): Error;
  /** A failure that ended the whole open transaction (a deferred write's, savepoints not waiting): answers the error to throw, or null. */
  protected abstract transactionEnded(error: PostgresQueryError): Error | null;

  get open(): boolean {
    return !this.closed;
  }

  /** Why the connection is lost while it connects again, or null. */
  get lost(): string | null {
    return this.link.down ? this.lostBecause : null;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** Whether a caller may block the thread for an answer here. */
  protected get canBlock(): boolean {
    return this.link.canBlock;
  }

  private spawn(): void {
    this.link = this.linkOf({ dsn: this.dsn, env: this.env, queryTimeoutMs: this.timeoutMs, searchPath: this.searchPath });
  }

  protected unavailable(detail: string): CheckbridgeError {
    // The transaction they belonged to is gone with the connection.
    this.queued = [];
    this.depth = 0;
    this.epoch++;
    return new CheckbridgeError('CB_STORE_UNAVAILABLE', `${this.name}: ${detail}`);
  }

  protected request(request: Omit<SyncRequest, 'id'>): Rows {
    // Lost: refused at once while the worker connects again, not each statement waiting out a connect timeout.
    if (this.link.down && !request.close && !this.closed && !this.reconnected())
      throw this.unavailable(`${this.lostBecause} (connecting again in the background)`);
    if (!this.link.canBlock) throw this.cannotBlock();
    return this.settle(this.awaitReply(this.post(request)));
  }

  /** A statement answered without blocking the thread (a unit's BEGIN with its reads, its COMMIT); refused at once while lost. */
  async requestAsync(request: Omit<SyncRequest, 'id'>): Promise<Rows> {
    if (this.link.down && !this.closed) throw this.unavailable(`${this.lostBecause} (connecting again in the background)`);
    return this.settle(await this.awaitReplyAsync(this.post(request)));
  }

  private settle(reply: SyncReply): Rows {
    for (const [write, changes] of reply.changes) this.changesOf.set(write, changes);
    if (!('error' in reply)) return reply;
    if (reply.error.unavailable) {
      this.lostBecause = reply.error.message;
      this.waitedForReconnect = false;
      throw this.unavailable(reply.error.message);
    }
    const error = new PostgresQueryError(reply.error.message, reply.error.code);
    throw (reply.error.deferred ? this.transactionEnded(error) : null) ?? error;
  }

  /** Once per loss, waits up to `RECONNECT_WAIT_MS` for the worker to connect again: a dropped session comes back at once. */
  private reconnected(): boolean {
    if (this.waitedForReconnect) return false;
    this.waitedForReconnect = true;
    return this.link.waitUp(RECONNECT_WAIT_MS);
  }

  private post(request: Omit<SyncRequest, 'id'>): number {
    const id = this.newId();
    const before = this.queued;
    this.queued = [];
    this.link.post({ ...request, id, inTransaction: this.depth > 0, ...(before.length > 0 ? { before } : {}) });
    return id;
  }

  private newId(): number {
    if (this.closed) throw new CheckbridgeError('CB_STORE_UNAVAILABLE', `${this.name}: the store is closed`);
    // Ids wrap within the flag's int32, never 0 (a new flag's value).
    return (this.nextId = (this.nextId % 0x7fffffff) + 1);
  }

  /** Inside a transaction, a write nobody waits for: sent with the next ones; its failure answers the next statement. */
  protected defer(sql: string): number {
    const id = this.newId();
    this.queued.push({ sql, deferred: true, id, inTransaction: this.depth > 0 });
    return id;
  }

  /** Blocks until the connection has answered `id` (or given up: no answer in time, or `giveUp` said why). */
  private awaitReply(id: number): SyncReply {
    return this.answered(this.link.blockFor(id, this.blockingWaitMs ?? this.timeoutMs + WAIT_GRACE_MS, this.giveUp));
  }

  /** As `awaitReply`, the thread free meanwhile. */
  private async awaitReplyAsync(id: number): Promise<SyncReply> {
    const link = this.link;
    const reply = await link.answer(id, this.timeoutMs + WAIT_GRACE_MS);
    if (isNoAnswer(reply) && link !== this.link) throw this.unavailable('the connection was replaced while a statement waited');
    return this.answered(reply);
  }

  private answered(reply: SyncReply | NoAnswer): SyncReply {
    if (!isNoAnswer(reply)) return reply;
    throw reply.replace ? this.replaced(reply.lost) : this.unavailable(reply.lost);
  }

  /** No answer within the deadline: the connection is replaced (its statement may hang on a dead network). */
  private replaced(why: string): CheckbridgeError {
    this.link.terminate();
    this.spawn();
    return this.unavailable(why);
  }

  close(): void {
    if (this.closed) return;
    if (this.link.canBlock)
      try {
        this.request({ sql: '', close: true });
      } catch {
        // Closing a connection that is already gone.
      }
    this.closed = true;
    this.link.terminate(true);
  }
}
