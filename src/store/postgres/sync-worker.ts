// The shared store's PostgreSQL connection thread: one pg Client; each request is answered on the port, then the
// waiting caller (SyncPostgres, blocked in Atomics.wait) is woken through the shared flag.
import { workerData, type MessagePort } from 'node:worker_threads';
import pg from 'pg';
import { poolConfigOf, type PgEnvironment } from './connection.js';

export interface SyncRequest {
  readonly id: number;
  readonly sql: string;
  readonly params?: readonly unknown[];
  /** A control or multi-statement text (simple protocol, no parameters, not prepared). */
  readonly simple?: boolean;
  readonly close?: boolean;
  /** Part of an open transaction: must not run on a new connection (the transaction died with the old one). */
  readonly inTransaction?: boolean;
}

export type SyncReply =
  | { readonly id: number; readonly rows: Record<string, unknown>[]; readonly changes: number; readonly command: string }
  | { readonly id: number; readonly error: { readonly message: string; readonly code: string | null; readonly unavailable: boolean } };

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
// int8 (COUNT, BIGINT epochs) and numeric as numbers, for this connection only: the store's values fit a double.
const asNumber = (value: string) => Number(value);
const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 1700 ? asNumber : pg.types.getTypeParser(oid, format)) };

let client: pg.Client | null = null;
let broken = false;
const statementNames = new Map<string, string>();

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
    await fresh.query(`SET search_path TO ${data.searchPath}`);
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

async function answer(request: SyncRequest): Promise<SyncReply> {
  try {
    if (request.close) {
      await client?.end();
      client = null;
      return { id: request.id, rows: [], changes: 0, command: 'CLOSE' };
    }
    if (request.inTransaction && (client === null || broken)) {
      broken = true;
      return { id: request.id, error: { message: 'the connection was lost during a transaction, which the server rolled back', code: null, unavailable: true } };
    }
    const c = await connection();
    const result = request.simple ? await c.query(request.sql) : await c.query({ name: nameOf(request.sql), text: request.sql, values: request.params as unknown[] });
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return { id: request.id, rows: last?.rows ?? [], changes: last?.rowCount ?? 0, command: last?.command ?? '' };
  } catch (error) {
    const e = error as Error & { code?: unknown };
    // A server error leaves the connection usable; anything else (refused, reset, timed out, shut down) does not.
    const unavailable = !(error instanceof pg.DatabaseError) || /^(08|57P)/.test(String(e.code));
    if (unavailable) broken = true;
    return { id: request.id, error: { message: e.message, code: typeof e.code === 'string' ? e.code : null, unavailable } };
  }
}

data.port.on('message', (request: SyncRequest) => {
  void answer(request).then((reply) => {
    data.port.postMessage(reply);
    Atomics.store(flag, 0, request.id);
    Atomics.notify(flag, 0);
    if (request.close) data.port.close();
  });
});
