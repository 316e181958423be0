// One pg Client running a store connection's statements in the order submitted: deferred writes (inside a transaction,
// nobody waiting; they come with the next request) go together as one simple query, with the COMMIT after them when
// one follows. A lost connection is reported down until it has connected again on its own. It runs in a connection's
// worker thread (sync-worker.ts) or on the main thread (main-thread-link.ts).
import { createRequire } from 'node:module';
import type pg from 'pg';
import { poolConfigOf, type PgEnvironment } from './connection.js';

// The driver is loaded by the first connection, as the other PostgreSQL parts do: a daemon on SQLite never loads it.
const load = createRequire(import.meta.url);
const driver = () => load('pg') as typeof pg;

export interface SyncRequest {
  readonly id: number;
  readonly sql: string;
  readonly params?: readonly unknown[];
  /** A control or multi-statement text (simple protocol, no parameters, not prepared). */
  readonly simple?: boolean;
  /** A write inside a transaction whose values are written in: no answer; its failure is the next answer. */
  readonly deferred?: boolean;
  /** ROLLBACK of the whole transaction: runs even after a deferred write failed. */
  readonly rollback?: boolean;
  readonly close?: boolean;
  /** Runs nothing: answered once every write posted before it ran (for their changes, or their failure). */
  readonly barrier?: boolean;
  /** Part of an open transaction: must not run on a new connection (the transaction died with the old one). */
  readonly inTransaction?: boolean;
  /** A simple query of several statements whose every result is wanted (a unit's BEGIN and reads). */
  readonly multi?: boolean;
  /** Deferred writes posted since the last message: they run before this request, with it when it is a COMMIT. */
  readonly before?: readonly SyncRequest[];
}

export interface SyncFailure {
  readonly message: string;
  readonly code: string | null;
  readonly unavailable: boolean;
  /** The failure was a deferred write's: the transaction is aborted. */
  readonly deferred?: boolean;
}

export interface SyncRows {
  readonly rows: Record<string, unknown>[];
  readonly rowCount: number;
  readonly command: string;
}

export type SyncReply = { readonly id: number; readonly changes: readonly [id: number, changes: number][] } & (
  (SyncRows & { readonly results?: readonly SyncRows[] }) | { readonly error: SyncFailure }
);

export interface RunnerConfig {
  readonly dsn: string;
  readonly env: PgEnvironment;
  readonly queryTimeoutMs: number;
  readonly searchPath: string;
}

const rowsOf = (result: pg.QueryResult | undefined): SyncRows => ({
  rows: result?.rows ?? [],
  rowCount: result?.rowCount ?? 0,
  command: result?.command ?? '',
});

const RETRY_MS = 500;
// int8 (COUNT, BIGINT epochs) and numeric as numbers, for this connection only: the store's values fit a double.
const asNumber = (value: string) => Number(value);
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 1700 ? asNumber : driver().types.getTypeParser(oid, format)),
};

const isCommit = (request: SyncRequest) => request.simple === true && request.sql === 'COMMIT';

export class StatementRunner {
  private client: pg.Client | null = null;
  private broken = false;
  private readonly statementNames = new Map<string, string>();
  private deferred: SyncRequest[] = [];
  private failure: SyncFailure | null = null;
  private changes: [number, number][] = [];
  private chain: Promise<unknown> = Promise.resolve();
  /** COMMITs submitted and not yet run: the deferred writes before one wait to travel with it (one round trip for both). */
  private commitsQueued = 0;
  private probing = false;
  /** Whether a connection ever worked: before, a refusal is the caller's error (a wrong password at start, say). */
  private everConnected = false;
  private stopped = false;

  constructor(
    private readonly config: RunnerConfig,
    /** Hears the connection go down (a statement found it lost) and come back (connected again in the background). */
    private readonly onDown: (down: boolean) => void,
    /** Hears each connection made, before its first statement (the main thread's keeps an idle socket from holding the process). */
    private readonly onConnected: (client: pg.Client) => void = () => undefined,
  ) {}

  /** Runs `request` after every request submitted before it; its answer (never a rejection). */
  submit(request: SyncRequest): Promise<SyncReply> {
    const commit = isCommit(request);
    if (commit) this.commitsQueued++;
    const reply = this.chain.then(() => {
      this.deferred.push(...(request.before ?? []));
      return commit ? this.commitWithDeferred(request) : this.flushDeferred().then(() => this.answer(request));
    });
    this.chain = reply.then((answered) => {
      if ('error' in answered && answered.error.unavailable && !request.close) {
        this.onDown(true);
        this.reconnect();
      }
    });
    return reply;
  }

  /**
   * Ends the connection: nothing more runs. `graceful`: told to the server first (a second at most); otherwise cut at
   * once, whatever it was doing (a statement hanging on a dead network).
   */
  destroy(graceful: boolean): void {
    this.stopped = true;
    const client = this.client as (pg.Client & { connection?: { stream?: { destroy(): void } } }) | null;
    this.client = null;
    if (!client) return;
    const cut = () => client.connection?.stream?.destroy();
    if (!graceful) cut();
    const timer = graceful ? setTimeout(cut, 1000).unref() : undefined;
    client
      .end()
      .catch(() => undefined)
      .finally(() => clearTimeout(timer));
  }

  private async connection(): Promise<pg.Client> {
    if (this.client && !this.broken) return this.client;
    if (this.stopped) throw new Error('the connection was closed');
    this.client?.end().catch(() => undefined);
    this.client = null;
    this.broken = false;
    const { max: _max, ...config } = poolConfigOf(this.config.dsn, 1, this.config.env);
    const fresh = new (driver().Client)({ ...config, types, query_timeout: this.config.queryTimeoutMs });
    fresh.on('error', () => (this.broken = true));
    try {
      await fresh.connect();
      // Deferred writes carry their values as literals: quotes doubled, backslashes plain.
      await fresh.query(`SET search_path TO ${this.config.searchPath}; SET standard_conforming_strings = on`);
    } catch (error) {
      fresh.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      fresh.end().catch(() => undefined);
      throw new Error('the connection was closed');
    }
    this.client = fresh;
    this.everConnected = true;
    this.onConnected(fresh);
    return fresh;
  }

  /**
   * The connection, connecting first if it is not; once one has worked, a refusal to connect again (too many
   * connections, a database not accepting them) is a lost connection too: reported down, retried in the background.
   */
  private async connected(): Promise<pg.Client> {
    try {
      return await this.connection();
    } catch (error) {
      if (!this.everConnected) throw error;
      const e = error as Error & { code?: unknown };
      throw Object.assign(new Error(e.message), { code: e.code });
    }
  }

  /** Prepared once per connection under a stable name (pg re-prepares on a new connection). */
  private nameOf(sql: string): string {
    let name = this.statementNames.get(sql);
    if (!name) this.statementNames.set(sql, (name = `cb${this.statementNames.size}`));
    return name;
  }

  private failureOf(error: unknown): SyncFailure {
    const e = error as Error & { code?: unknown };
    // A server error leaves the connection usable; anything else (refused, reset, timed out, shut down) does not.
    const unavailable = !(error instanceof driver().DatabaseError) || /^(08|57P)/.test(String(e.code));
    // (A refusal to connect again is a plain Error marked so: not a DatabaseError, it counts as lost.)
    if (unavailable) this.broken = true;
    return { message: e.message, code: typeof e.code === 'string' ? e.code : null, unavailable };
  }

  private lostTransaction(): SyncFailure {
    this.broken = true;
    return { message: 'the connection was lost during a transaction, which the server rolled back', code: null, unavailable: true };
  }

  /** The deferred writes submitted so far, as one simple query; after a failure they are dropped (the transaction is aborted). */
  private async flushDeferred(): Promise<void> {
    if (this.commitsQueued > 0) return;
    const batch = this.deferred;
    this.deferred = [];
    if (batch.length === 0 || this.failure) return;
    if (this.client === null || this.broken) {
      this.failure = { ...this.lostTransaction(), deferred: true };
      return;
    }
    try {
      const result = await this.client.query(batch.map((r) => r.sql).join(';\n'));
      const results = Array.isArray(result) ? result : [result];
      batch.forEach((r, i) => this.changes.push([r.id, results[i]?.rowCount ?? 0]));
    } catch (error) {
      this.failure = { ...this.failureOf(error), deferred: true };
    }
  }

  private async answer(request: SyncRequest): Promise<SyncReply> {
    const done = this.changes;
    this.changes = [];
    if (this.failure && !request.rollback && !request.close) {
      const error = this.failure;
      this.failure = null;
      return { id: request.id, changes: done, error };
    }
    this.failure = null;
    try {
      if (request.close) {
        this.stopped = true;
        await this.client?.end();
        this.client = null;
        return { id: request.id, changes: done, rows: [], rowCount: 0, command: 'CLOSE' };
      }
      if (request.barrier) return { id: request.id, changes: done, rows: [], rowCount: 0, command: 'BARRIER' };
      if (request.inTransaction && (this.client === null || this.broken)) return { id: request.id, changes: done, error: this.lostTransaction() };
      const c = await this.connected();
      const result = request.simple
        ? await c.query(request.sql)
        : await c.query({ name: this.nameOf(request.sql), text: request.sql, values: request.params as unknown[] });
      const all: pg.QueryResult[] = Array.isArray(result) ? result : [result];
      return { id: request.id, changes: done, ...rowsOf(all[all.length - 1]), ...(request.multi ? { results: all.map(rowsOf) } : {}) };
    } catch (error) {
      return { id: request.id, changes: done, error: this.failureOf(error) };
    }
  }

  /** The deferred writes and the COMMIT after them as one simple query; a failure of either is a deferred write's (the transaction is lost). */
  private async commitWithDeferred(request: SyncRequest): Promise<SyncReply> {
    this.commitsQueued--;
    if (this.deferred.length === 0 || this.failure || this.client === null || this.broken) {
      await this.flushDeferred();
      return this.answer(request);
    }
    const batch = this.deferred;
    this.deferred = [];
    const done = this.changes;
    this.changes = [];
    try {
      const result = await this.client.query([...batch.map((r) => r.sql), 'COMMIT'].join(';\n'));
      const results: pg.QueryResult[] = Array.isArray(result) ? result : [result];
      batch.forEach((r, i) => done.push([r.id, results[i]?.rowCount ?? 0]));
      const last = { rows: [], rowCount: 0, command: results[results.length - 1]?.command ?? '' };
      return { id: request.id, changes: done, ...last, ...(request.multi ? { results: results.map(rowsOf) } : {}) };
    } catch (error) {
      return { id: request.id, changes: done, error: { ...this.failureOf(error), deferred: true } };
    }
  }

  /** Connects again in the background, every `RETRY_MS`, until it works; callers are not kept waiting meanwhile. */
  private reconnect(): void {
    if (this.probing || this.stopped) return;
    this.probing = true;
    const attempt = () => {
      this.chain = this.chain.then(async () => {
        try {
          await this.connection();
          this.probing = false;
          this.onDown(false);
        } catch {
          if (this.stopped) this.probing = false;
          else setTimeout(attempt, RETRY_MS).unref();
        }
      });
    };
    attempt();
  }
}
