// The shared store's PostgreSQL connection thread: one pg Client. Statements run in the order posted. A waiting
// caller (SyncPostgres, blocked in Atomics.wait) is answered on the port, then woken through the shared flag (the id
// answered). Deferred writes (inside a transaction, nobody waiting; they come with the next request) are sent together as one simple query. Once the
// connection is lost, the flag's second slot says so until this thread has connected again on its own.
import { workerData, type MessagePort } from 'node:worker_threads';
import pg from 'pg';
import { poolConfigOf, type PgEnvironment } from './connection.js';

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

const rowsOf = (result: pg.QueryResult | undefined): SyncRows => ({
  rows: result?.rows ?? [],
  rowCount: result?.rowCount ?? 0,
  command: result?.command ?? '',
});

interface Data {
  readonly dsn: string;
  readonly env: PgEnvironment;
  readonly flag: SharedArrayBuffer;
  readonly port: MessagePort;
  readonly queryTimeoutMs: number;
  readonly searchPath: string;
}

const data = workerData as Data;
const flag = new Int32Array(data.flag);
/** The flag's second slot: 1 while the connection is lost (callers fail at once), 0 once connected again. */
const DOWN = 1;
const RETRY_MS = 500;
// int8 (COUNT, BIGINT epochs) and numeric as numbers, for this connection only: the store's values fit a double.
const asNumber = (value: string) => Number(value);
const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 1700 ? asNumber : pg.types.getTypeParser(oid, format)) };

let client: pg.Client | null = null;
let broken = false;
const statementNames = new Map<string, string>();
let deferred: SyncRequest[] = [];
let failure: SyncFailure | null = null;
let changes: [number, number][] = [];
let chain: Promise<void> = Promise.resolve();
/** COMMITs posted and not yet run: the deferred writes before one wait to travel with it (one round trip for both). */
let commitsQueued = 0;

const isCommit = (request: SyncRequest) => request.simple === true && request.sql === 'COMMIT';

async function connection(): Promise<pg.Client> {
  if (client && !broken) return client;
  client?.end().catch(() => undefined);
  client = null;
  broken = false;
  const { max: _max, ...config } = poolConfigOf(data.dsn, 1, data.env);
  const fresh = new pg.Client({ ...config, types, query_timeout: data.queryTimeoutMs });
  fresh.on('error', () => (broken = true));
  try {
    await fresh.connect();
    // Deferred writes carry their values as literals: quotes doubled, backslashes plain.
    await fresh.query(`SET search_path TO ${data.searchPath}; SET standard_conforming_strings = on`);
  } catch (error) {
    fresh.end().catch(() => undefined);
    throw error;
  }
  client = fresh;
  return fresh;
}

/** Prepared once per connection under a stable name (pg re-prepares on a new connection). */
function nameOf(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `cb${statementNames.size}`));
  return name;
}

function failureOf(error: unknown): SyncFailure {
  const e = error as Error & { code?: unknown };
  // A server error leaves the connection usable; anything else (refused, reset, timed out, shut down) does not.
  const unavailable = !(error instanceof pg.DatabaseError) || /^(08|57P)/.test(String(e.code));
  if (unavailable) broken = true;
  return { message: e.message, code: typeof e.code === 'string' ? e.code : null, unavailable };
}

const lostTransaction = (): SyncFailure => {
  broken = true;
  return { message: 'the connection was lost during a transaction, which the server rolled back', code: null, unavailable: true };
};

/** The deferred writes posted so far, as one simple query; after a failure they are dropped (the transaction is aborted). */
async function flushDeferred(): Promise<void> {
  if (commitsQueued > 0) return;
  const batch = deferred;
  deferred = [];
  if (batch.length === 0 || failure) return;
  if (client === null || broken) {
    failure = { ...lostTransaction(), deferred: true };
    return;
  }
  try {
    const result = await client.query(batch.map((r) => r.sql).join(';\n'));
    const results = Array.isArray(result) ? result : [result];
    batch.forEach((r, i) => changes.push([r.id, results[i]?.rowCount ?? 0]));
  } catch (error) {
    failure = { ...failureOf(error), deferred: true };
  }
}

async function answer(request: SyncRequest): Promise<SyncReply> {
  const done = changes;
  changes = [];
  if (failure && !request.rollback && !request.close) {
    const error = failure;
    failure = null;
    return { id: request.id, changes: done, error };
  }
  failure = null;
  try {
    if (request.close) {
      await client?.end();
      client = null;
      return { id: request.id, changes: done, rows: [], rowCount: 0, command: 'CLOSE' };
    }
    if (request.barrier) return { id: request.id, changes: done, rows: [], rowCount: 0, command: 'BARRIER' };
    if (request.inTransaction && (client === null || broken)) return { id: request.id, changes: done, error: lostTransaction() };
    const c = await connection();
    const result = request.simple
      ? await c.query(request.sql)
      : await c.query({ name: nameOf(request.sql), text: request.sql, values: request.params as unknown[] });
    const all: pg.QueryResult[] = Array.isArray(result) ? result : [result];
    return { id: request.id, changes: done, ...rowsOf(all[all.length - 1]), ...(request.multi ? { results: all.map(rowsOf) } : {}) };
  } catch (error) {
    return { id: request.id, changes: done, error: failureOf(error) };
  }
}

/** The deferred writes and the COMMIT after them as one simple query; a failure of either is a deferred write's (the transaction is lost). */
async function commitWithDeferred(request: SyncRequest): Promise<SyncReply> {
  commitsQueued--;
  if (deferred.length === 0 || failure || client === null || broken) {
    await flushDeferred();
    return answer(request);
  }
  const batch = deferred;
  deferred = [];
  const done = changes;
  changes = [];
  try {
    const result = await client.query([...batch.map((r) => r.sql), 'COMMIT'].join(';\n'));
    const results: pg.QueryResult[] = Array.isArray(result) ? result : [result];
    batch.forEach((r, i) => done.push([r.id, results[i]?.rowCount ?? 0]));
    const last = { rows: [], rowCount: 0, command: results[results.length - 1]?.command ?? '' };
    return { id: request.id, changes: done, ...last, ...(request.multi ? { results: results.map(rowsOf) } : {}) };
  } catch (error) {
    return { id: request.id, changes: done, error: { ...failureOf(error), deferred: true } };
  }
}

let probing = false;

/** Connects again in the background, every `RETRY_MS`, until it works; callers are not kept waiting meanwhile. */
function reconnect(): void {
  if (probing) return;
  probing = true;
  const attempt = () => {
    chain = chain.then(async () => {
      try {
        await connection();
        probing = false;
        Atomics.store(flag, DOWN, 0);
        Atomics.notify(flag, DOWN);
      } catch {
        setTimeout(attempt, RETRY_MS);
      }
    });
  };
  attempt();
}

data.port.on('message', (request: SyncRequest) => {
  const commit = isCommit(request);
  if (commit) commitsQueued++;
  chain = chain
    .then(() => {
      deferred.push(...(request.before ?? []));
      return commit ? commitWithDeferred(request) : flushDeferred().then(() => answer(request));
    })
    .then((reply) => {
      const lost = 'error' in reply && reply.error.unavailable && !request.close;
      if (lost) Atomics.store(flag, DOWN, 1);
      data.port.postMessage(reply);
      Atomics.store(flag, 0, request.id);
      Atomics.notify(flag, 0);
      if (request.close) data.port.close();
      else if (lost) reconnect();
    });
});
