// PostgreSQL's side of the pg-latency bench: pg_stat_statements loaded, per-database top statements, the server's CPU,
// and a round trip timed through the proxy (what the proxy really adds).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { median } from './latency.js';
import { treeCpuMs } from './vs-servers.js';
import type { PostgresServer } from '../../servers/postgres.js';
import type { DelayProxy } from './pg-latency-servers.js';
import type { PgCounters } from './pg-latency-steps.js';

/** Restarts `server` with pg_stat_statements loaded (utility statements too, by default: BEGIN and COMMIT count). */
export async function withStatementStats(server: PostgresServer): Promise<void> {
  await server.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await server.restart('fast');
  await server.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}

/** The CPU of the postmaster and every backend (children, and reaped children's), in ms. */
export function postgresCpuMs(server: PostgresServer): number {
  return treeCpuMs(Number(readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]));
}

export function pgCounters(server: PostgresServer, proxy: DelayProxy, database: string): PgCounters & { cpuMs(): number } {
  return {
    proxy,
    reset: async () => void (await server.query('SELECT pg_stat_statements_reset()')),
    async top() {
      const { rows } = await server.query(
        `SELECT s.calls::int AS calls, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 140) AS query FROM pg_stat_statements s ` +
          `JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '${database}' ORDER BY s.calls DESC`,
      );
      const all = rows as { calls: number; query: string }[];
      return { total: all.reduce((sum, r) => sum + r.calls, 0), top: all.slice(0, 8) };
    },
    cpuMs: () => postgresCpuMs(server),
  };
}

/** Median ms of `SELECT 1` on one connection to `port`: through the proxy, beside the same straight to the server. */
export async function roundTripMs(port: number, database = 'postgres'): Promise<number> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
  await client.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const started = performance.now();
      await client.query('SELECT 1');
      if (i >= 10) times.push(performance.now() - started);
    }
    return +median(times).toFixed(3);
  } finally {
    await client.end();
  }
}
