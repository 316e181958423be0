// The pg-latency bench's steps against one server; each resolves with flat figures, /health's latency during it included.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { summary } from './latency.js';
import { runWrk } from './wrk.js';
import { AGENT_PASSWORD } from './vs-servers.js';
import { eventsProcessed, sampleHealth, type BenchServer, type DelayProxy } from './pg-latency-servers.js';

export type Figures = Record<string, number | string | object>;

/** Where PostgreSQL's work is counted: the proxy's statements and round trips, pg_stat_statements' top statements. */
export interface PgCounters {
  readonly proxy: DelayProxy;
  /** Empties pg_stat_statements. */
  reset(): Promise<void>;
  /** Statements run in the store's database since the reset, and the most called ones with their text. */
  top(): Promise<{ total: number; top: { calls: number; query: string }[] }>;
  /** PostgreSQL's own CPU (every backend), in ms. */
  cpuMs(): number;
}

/** What a step costs per unit (event, request): the daemon's CPU, and with PostgreSQL its statements and round trips. */
async function window(server: BenchServer, pg: PgCounters | null) {
  await pg?.reset();
  const [cpu, pgCpu, counts, at] = [server.cpuMs(), pg?.cpuMs() ?? 0, await pg?.proxy.counts(), performance.now()];
  return async (units: number, unit: string): Promise<Figures> => {
    const [cpuAfter, countsAfter, seconds] = [server.cpuMs(), await pg?.proxy.counts(), (performance.now() - at) / 1000];
    const per = (n: number) => +(n / Math.max(1, units)).toFixed(2);
    const figures: Figures = {
      [`cpu_us_per_${unit}`]: Math.round(((cpuAfter - cpu) * 1000) / Math.max(1, units)),
      cpu_cores: +((cpuAfter - cpu) / 1000 / seconds).toFixed(2),
    };
    if (pg && counts && countsAfter) {
      figures[`postgres_cpu_us_per_${unit}`] = Math.round(((pg.cpuMs() - pgCpu) * 1000) / Math.max(1, units));
      const { total, top } = await pg.top();
      // Statements as PostgreSQL ran them; queries as the client sent them (one simple query may hold several statements).
      figures[`statements_per_${unit}`] = per(total);
      figures[`queries_per_${unit}`] = per(countsAfter.statements - counts.statements);
      figures[`round_trips_per_${unit}`] = per(countsAfter.round_trips - counts.round_trips);
      figures.top_statements = top.map((s) => ({ [`calls_per_${unit}`]: per(s.calls), query: s.query }));
    }
    return figures;
  };
}

const prefixed = (prefix: string, figures: Figures): Figures => Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${prefix}_${k}`, v]));

/** `n` events stored through `PUT`, 20 at a time (untimed: the proxy may be at 0 while they go in). */
export async function seedEvents(server: BenchServer, key: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, async (_, j) => {
        const body = {
          entity: { entity_class: 'proxy', metadata: { name: `list-${i + j}` } },
          check: { metadata: { name: 'list' }, interval: 60, status: 0, output: 'ok' },
        };
        const reply = await fetch(`${server.api}/api/core/v2/namespaces/default/events/list-${i + j}/list`, {
          method: 'PUT',
          headers: { authorization: key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (reply.status >= 300) throw new Error(`${server.label}: PUT event list-${i + j}/list answered ${reply.status}: ${await reply.text()}`);
      }),
    );
  }
}

/** `GET` of the namespace's events (the seeded ones), `gets` times one after another: p50/p99, /health meanwhile. */
export async function getEvents(server: BenchServer, key: string, gets: number, pg: PgCounters | null): Promise<Figures> {
  const health = sampleHealth(server);
  const end = await window(server, pg);
  const times: number[] = [];
  let listed = 0;
  for (let k = 0; k < gets; k++) {
    const started = performance.now();
    const reply = await fetch(`${server.api}/api/core/v2/namespaces/default/events`, { headers: { authorization: key } });
    const body = (await reply.json()) as unknown[];
    if (reply.status !== 200) throw new Error(`${server.label}: GET events answered ${reply.status}`);
    times.push(performance.now() - started);
    listed = body.length;
  }
  return prefixed('get', { listed, ...summary(times, 'list'), ...(await end(gets, 'get')), ...(await health.stop()) });
}

/** wrk's `connections` PUT events for `seconds`; figures named `prefix` (`put`). */
export async function putEvents(server: BenchServer, key: string, seconds: number, pg: PgCounters | null, connections = 32, prefix = 'put'): Promise<Figures> {
  const health = sampleHealth(server);
  const end = await window(server, pg);
  const run = await runWrk(tmpdir(), server.api, key, seconds, connections);
  const requests = Math.round(run.requests_per_s * seconds);
  return prefixed(prefix, { per_s: run.requests_per_s, p99_ms: run.p99_ms, non_2xx: run.non_2xx, ...(await end(requests, 'put')), ...(await health.stop()) });
}

/** Resolves once the daemon has processed `count` events more than `base`, or after `ms` (false then). */
async function processedBeyond(server: BenchServer, base: number, count: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(250)) if ((await eventsProcessed(server)) >= base + count) return true;
  return false;
}

type Start = { processed: number; at: number; end: Awaited<ReturnType<typeof window>> };

/**
 * `agents` agents send events for `seconds`, flat out (`rate` 0) or `rate` events/s in all, once each agent's first
 * event is stored (its entity exists): events/s is what the daemon processed (its `sensu_go_events_processed`) from
 * then to the end of sending.
 */
export async function agentEvents(server: BenchServer, agents: number, seconds: number, rate: number, prefix: string, pg: PgCounters | null): Promise<Figures> {
  const health = sampleHealth(server);
  const base = await eventsProcessed(server);
  const script = fileURLToPath(new URL('./pg-agents.js', import.meta.url));
  const proc = spawn(process.execPath, [script, server.agentUrl, AGENT_PASSWORD, prefix, String(agents), String(seconds), String(rate)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let [buffer, stderr] = ['', ''];
  let started: Promise<Start> | null = null;
  let warmed: Promise<boolean> = Promise.resolve(false);
  let sent = 0;
  proc.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  proc.stdout.on('data', (chunk: Buffer) => {
    const parts = (buffer + chunk.toString()).split('\n');
    buffer = parts.pop()!;
    for (const line of parts.filter(Boolean).map((p) => JSON.parse(p) as { phase: string; sent?: number })) {
      if (line.phase === 'connected') warmed = processedBeyond(server, base, agents, 120_000).finally(() => proc.stdin.end('go\n'));
      if (line.phase === 'started')
        started = (async () => ({ processed: await eventsProcessed(server), at: performance.now(), end: await window(server, pg) }))();
      if (line.phase === 'end') sent = line.sent!;
    }
  });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (code !== 0 || !started) throw new Error(`${server.label}: pg-agents exited ${code}: ${stderr.slice(-2000)}`);
  const begin = await (started as Promise<Start>);
  const [processed, at] = [(await eventsProcessed(server)) - begin.processed, performance.now()];
  const figures = await begin.end(processed, 'event');
  return prefixed('agents', {
    events_per_s: Math.round(processed / ((at - begin.at) / 1000)),
    sent_per_s: Math.round(sent / seconds),
    // Whether every agent's first event was stored before the timed part began (two minutes at most).
    warmed_up: (await warmed) ? 1 : 0,
    ...figures,
    ...(await health.stop()),
  });
}
