// npm run bench -- shared-store: results/s through the client socket of a whole `checkbridge run` whose store is on
// PostgreSQL (--store-dsn), beside the same daemon on its SQLite file and a bare batched INSERT ... ON CONFLICT into the
// same PostgreSQL, all in this run; and what one synchronous statement costs through the worker thread.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { SyncPostgres } from '../../src/store/postgres/sync-client.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresMissing, startPostgres } from '../servers/postgres.js';
import { benchDaemon } from './load/daemon.js';
import { runLoad } from './load/child.js';
import { bareUpsertRate } from './load/pg-upsert.js';

const RUNS = 3;
const FILES = {
  'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } },
  'checkbridge.json': { checkbridge: { entity_limit: 0 } },
};

/** Microseconds per `SELECT $1` round trip: through SyncPostgres (worker + Atomics.wait) and awaited on a pg Client. */
async function perQueryMicros(dsn: string): Promise<{ sync_us: number; async_us: number }> {
  const n = 5000;
  const sync = new SyncPostgres(dsn, {}, 'bench', 'public');
  const select = sync.prepare('SELECT ?::int AS v');
  for (let i = 0; i < 500; i++) select.get(i);
  let started = performance.now();
  for (let i = 0; i < n; i++) select.get(i);
  const syncUs = ((performance.now() - started) * 1000) / n;
  sync.close();
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  const query = { name: 'v', text: 'SELECT $1::int AS v' };
  for (let i = 0; i < 500; i++) await client.query({ ...query, values: [i] });
  started = performance.now();
  for (let i = 0; i < n; i++) await client.query({ ...query, values: [i] });
  const asyncUs = ((performance.now() - started) * 1000) / n;
  await client.end();
  return { sync_us: +syncUs.toFixed(1), async_us: +asyncUs.toFixed(1) };
}

/** Median results/s of `checkbridge run` (with `extra` flags) over the client socket, 8 senders, 100 results per connection. */
async function daemonRate(extra: string[], connections: number): Promise<{ median: number; runs: number[]; ack_p50_ms: number }> {
  const root = makeTree({});
  const { daemon, socket } = await benchDaemon(root, FILES, extra);
  try {
    await runLoad('socket-senders', [socket, 100, 20, 8]);
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await runLoad('socket-senders', [socket, 100, connections, 8]));
    runs.sort((a, b) => a.results_per_s! - b.results_per_s!);
    const mid = runs[Math.floor(RUNS / 2)]!;
    return { median: mid.results_per_s!, runs: runs.map((r) => r.results_per_s!), ack_p50_ms: mid.ack_p50_ms! };
  } finally {
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}

export async function benchSharedStore(report: (figure: object) => void): Promise<void> {
  const missing = postgresMissing();
  if (missing) return report({ bench: 'shared-store', skipped: missing });
  const server = await startPostgres();
  try {
    await server.query('CREATE DATABASE bench_raw');
    await server.query('CREATE DATABASE bench_store');
    const bare = await bareUpsertRate(server.url('postgres', 'bench_raw'), 100_000);
    const overhead = await perQueryMicros(server.url('postgres', 'bench_raw'));
    report({
      bench: 'shared-store.query-overhead',
      row: 'one synchronous statement through the worker thread vs awaited on a pg Client (same server, same run)',
      ...overhead,
      overhead_us: +(overhead.sync_us - overhead.async_us).toFixed(1),
    });
    const sqlite = await daemonRate([], 200);
    const postgres = await daemonRate(['--store-dsn', server.url('postgres', 'bench_store')], 40);
    report({
      bench: 'shared-store.socket-intake',
      row: 'results through the TCP client socket of checkbridge run, 8 senders, 100 per connection',
      postgres_results_per_s: postgres.median,
      postgres_runs: postgres.runs,
      postgres_ack_p50_ms: postgres.ack_p50_ms,
      sqlite_results_per_s: sqlite.median,
      sqlite_runs: sqlite.runs,
      bare_insert_on_conflict_rows_per_s: bare,
      ratio_to_sqlite: +(postgres.median / sqlite.median).toFixed(3),
      ratio_to_bare: +(postgres.median / bare).toFixed(3),
      target_per_s: 5000,
    });
  } finally {
    server.stop();
  }
}
