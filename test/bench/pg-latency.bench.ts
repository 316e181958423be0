// npm run bench -- pg-latency: `checkbridge run` on PostgreSQL behind a delaying proxy (added round trip 0, 0.5, 2 ms),
// beside the same daemon on SQLite in the same run: agent events/s, authenticated event PUT/s (wrk), GET of 1,000
// events, /health p99 during each, CPU, statements and round trips per event; then two servers sharing one PostgreSQL
// at 2 ms, each fed the rate one server holds alone at about half a core.
// Knobs (a full run is ~10 minutes; PG_LATENCY_DELAYS=0,2 PG_LATENCY_SECONDS=5 PG_LATENCY_PAIR=0 is a short one):
//   PG_LATENCY_DELAYS (ms, default 0,0.5,2), PG_LATENCY_AGENTS (200), PG_LATENCY_SECONDS (each timed step, 10),
//   PG_LATENCY_LIST (events listed by GET, 1000), PG_LATENCY_GETS (20), PG_LATENCY_PAIR (0 leaves the pair out),
//   PG_LATENCY_PAIR_DELAY (ms, 2), PG_LATENCY_PUT_MANY (wrk's connections in the second PUT step, 256; 0 leaves it out).
import { loadavg } from 'node:os';
import { postgresMissing, startPostgres, type PostgresServer } from '../servers/postgres.js';
import { nodeStartMs } from './load/latency.js';
import { wrkPath } from './load/wrk.js';
import { apiKey, type Server } from './load/vs-servers.js';
import { elections, eventsProcessed, startDelayProxy, startServer, type BenchServer, type DelayProxy } from './load/pg-latency-servers.js';
import { agentEvents, getEvents, putEvents, seedEvents, type Figures } from './load/pg-latency-steps.js';
import { pgCounters, roundTripMs, withStatementStats } from './load/pg-counters.js';
import { benchPair } from './load/pg-latency-pair.js';

const env = process.env;
const DELAYS = (env.PG_LATENCY_DELAYS ?? '0,0.5,2').split(',').filter(Boolean).map(Number);
const AGENTS = Number(env.PG_LATENCY_AGENTS ?? 200);
const SECONDS = Number(env.PG_LATENCY_SECONDS ?? 10);
const LIST = Number(env.PG_LATENCY_LIST ?? 1000);
const GETS = Number(env.PG_LATENCY_GETS ?? 20);
const PAIR = env.PG_LATENCY_PAIR !== '0';
const PAIR_DELAY = Number(env.PG_LATENCY_PAIR_DELAY ?? 2);
// 32 connections measure a PUT's latency (each waits for its commit); this many measure what a server takes in.
const PUT_MANY = Number(env.PG_LATENCY_PUT_MANY ?? 256);

/** An API key of the admin (`Key …`): it outlives a slow step, where an access token could expire. */
const keyOf = (server: BenchServer) => apiKey({ name: 'checkbridge', api: server.api } as Server);

/** Every step on one fresh server: 1,000 events stored, then (at `delayMs`, PostgreSQL only) GET, PUT, agents. */
async function steps(server: BenchServer, pg: (ReturnType<typeof pgCounters> & { delay: () => Promise<unknown> }) | null): Promise<Figures> {
  try {
    const key = await keyOf(server);
    await eventsProcessed(server); // the first /metrics loads prom-client: not in a timed step
    await seedEvents(server, key, LIST);
    const logFrom = server.daemon.logs.length;
    await pg?.delay();
    const figures: Figures = { ...(await getEvents(server, key, GETS, pg)) };
    if (wrkPath()) Object.assign(figures, await putEvents(server, key, SECONDS, pg));
    if (wrkPath() && PUT_MANY > 0) Object.assign(figures, await putEvents(server, key, SECONDS, pg, PUT_MANY, 'putmany'));
    Object.assign(figures, await agentEvents(server, AGENTS, SECONDS, 0, server.label, pg));
    const { lost } = elections(server, logFrom);
    return { ...figures, elections_lost: lost };
  } catch (error) {
    throw new Error(`${server.label}: ${(error as Error).message}\n${JSON.stringify(server.daemon.logs.slice(-5))}`);
  } finally {
    await server.stop();
  }
}

const pick = (figures: Figures, prefix: string) => Object.fromEntries(Object.entries(figures).filter(([k]) => k.startsWith(prefix)));
const ratio = (a: unknown, b: unknown) => (Number(b) > 0 ? +(Number(a) / Number(b)).toFixed(3) : null);

async function row(postgres: PostgresServer, proxy: DelayProxy, delayMs: number, index: number, report: (figure: object) => void): Promise<Figures> {
  const sqlite = await steps(await startServer('sqlite', null), null);
  const database = `rtt_${index}`;
  await postgres.query(`CREATE DATABASE ${database}`);
  await proxy.setDelay(0);
  const counters = { ...pgCounters(postgres, proxy, database), delay: () => proxy.setDelay(delayMs) };
  const onPg = await steps(await startServer('postgres', `postgres://postgres@127.0.0.1:${proxy.port}/${database}`), counters);
  const measured = await roundTripMs(proxy.port);
  await proxy.setDelay(0);
  const direct = await roundTripMs(postgres.port);
  const common = { bench: 'pg-latency', added_round_trip_ms: delayMs, measured_added_ms: +(measured - direct).toFixed(3), direct_round_trip_ms: direct };
  const baseline = 'the same daemon on SQLite, same run';
  const healthTarget = (step: string) => Math.max(250, 1.5 * Number(sqlite[`${step}_health_p99_ms`]));
  report({
    ...common,
    row: `agent events/s: ${AGENTS} simulated Sensu Go agents flat out for ${SECONDS} s (events the daemon processed)`,
    postgres: pick(onPg, 'agents_'),
    baseline,
    sqlite: pick(sqlite, 'agents_'),
    ratio: ratio(onPg.agents_events_per_s, sqlite.agents_events_per_s),
    health_p99_ratio: ratio(onPg.agents_health_p99_ms, sqlite.agents_health_p99_ms),
    health_p99_target_ms: healthTarget('agents'),
    elections_lost: onPg.elections_lost,
    targets: 'ratio >= 0.5 at 2 ms; /health max <= 1000 ms, p99 <= max(250 ms, 1.5 x SQLite); no lost election',
  });
  if (onPg.put_per_s !== undefined)
    report({
      ...common,
      row: `authenticated event PUT/s, wrk -t2 -c32 -d${SECONDS}s`,
      postgres: pick(onPg, 'put_'),
      baseline,
      sqlite: pick(sqlite, 'put_'),
      ratio: ratio(onPg.put_per_s, sqlite.put_per_s),
      health_p99_ratio: ratio(onPg.put_health_p99_ms, sqlite.put_health_p99_ms),
      health_p99_target_ms: healthTarget('put'),
    });
  if (onPg.putmany_per_s !== undefined)
    report({
      ...common,
      row: `authenticated event PUT/s, wrk -t2 -c${PUT_MANY} -d${SECONDS}s (a server's intake rather than a PUT's latency)`,
      postgres: pick(onPg, 'putmany_'),
      baseline,
      sqlite: pick(sqlite, 'putmany_'),
      ratio: ratio(onPg.putmany_per_s, sqlite.putmany_per_s),
      health_p99_ratio: ratio(onPg.putmany_health_p99_ms, sqlite.putmany_health_p99_ms),
      health_p99_target_ms: healthTarget('putmany'),
    });
  report({
    ...common,
    row: `GET of the namespace's ${LIST} events, ${GETS} one after another`,
    postgres: pick(onPg, 'get_'),
    baseline,
    sqlite: pick(sqlite, 'get_'),
    ratio_p50: ratio(onPg.get_list_p50_ms, sqlite.get_list_p50_ms),
    health_p99_ratio: ratio(onPg.get_health_p99_ms, sqlite.get_health_p99_ms),
  });
  return onPg;
}

export async function benchPgLatency(report: (figure: object) => void): Promise<void> {
  const missing = postgresMissing();
  if (missing) return report({ bench: 'pg-latency', skipped: missing });
  const machine = { node_e0_ms_before: nodeStartMs(), load_average_before: loadavg().map((l) => +l.toFixed(2)) };
  const postgres = await startPostgres();
  let proxy: DelayProxy | null = null;
  try {
    await withStatementStats(postgres);
    proxy = await startDelayProxy(postgres.port, 0);
    for (const [index, delay] of DELAYS.entries()) await row(postgres, proxy, delay, index, report);
    if (PAIR) await benchPair(postgres, proxy, PAIR_DELAY, AGENTS, SECONDS, report);
  } finally {
    await proxy?.stop();
    postgres.stop();
  }
  report({
    bench: 'pg-latency',
    row: 'machine',
    ...machine,
    node_e0_ms_after: nodeStartMs(),
    load_average_after: loadavg().map((l) => +l.toFixed(2)),
    delays_ms: DELAYS,
    agents: AGENTS,
    seconds: SECONDS,
    wrk: Boolean(wrkPath()),
    put_many_connections: PUT_MANY,
  });
}
