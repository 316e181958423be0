// Two servers sharing one PostgreSQL behind the delaying proxy: does a second server add its rate (no shared lock, hot
// row or leader in the way)? One server alone flat out gives the rate it holds at about half a core; it is then fed that
// rate alone (scaled once when, paced, it took more than that), and both are fed it at once.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PostgresServer } from '../../servers/postgres.js';
import { pgCounters, postgresCpuMs } from './pg-counters.js';
import { elections, eventsProcessed, sampleHealth, startServer, type BenchServer, type DelayProxy } from './pg-latency-servers.js';
import { agentEvents, type Figures } from './pg-latency-steps.js';

const HALF_CORE = 0.5;

/** Waits until the daemon's processed count stops growing (a flat-out step's backlog), at most 20 s. */
async function settle(server: BenchServer): Promise<void> {
  let last = -1;
  for (let i = 0; i < 20; i++) {
    const now = await eventsProcessed(server);
    if (now === last) return;
    last = now;
    await sleep(1000);
  }
}

/** What `run` cost PostgreSQL and the proxy per event of `events()`, with /health of every server sampled meanwhile. */
async function counted<T>(postgres: PostgresServer, proxy: DelayProxy, servers: BenchServer[], run: () => Promise<T>, events: (t: T) => number) {
  const health = servers.map((s) => sampleHealth(s));
  const pg = pgCounters(postgres, proxy, 'pair');
  await pg.reset();
  const [before, pgCpu] = [await proxy.counts(), postgresCpuMs(postgres)];
  const result = await run();
  const [after, n] = [await proxy.counts(), Math.max(1, events(result))];
  const { total, top } = await pg.top();
  return {
    result,
    // Everything the servers ran in the window (their /health probes, lease renewals and schedulers too), per event.
    statements: +(total / n).toFixed(2),
    top_statements: top.slice(0, 5).map((s) => ({ calls_per_event: +(s.calls / n).toFixed(2), query: s.query })),
    postgres_cpu_us_per_event: Math.round(((postgresCpuMs(postgres) - pgCpu) * 1000) / n),
    statements_per_event: +((after.statements - before.statements) / n).toFixed(2),
    round_trips_per_event: +((after.round_trips - before.round_trips) / n).toFixed(2),
    health: await Promise.all(health.map((h) => h.stop())),
  };
}

const figures = (f: Figures) => ({
  events_per_s: Number(f.agents_events_per_s),
  sent_per_s: Number(f.agents_sent_per_s),
  cpu_us_per_event: Number(f.agents_cpu_us_per_event),
  cpu_cores: Number(f.agents_cpu_cores),
});

export async function benchPair(
  postgres: PostgresServer,
  proxy: DelayProxy,
  delayMs: number,
  agents: number,
  seconds: number,
  report: (figure: object) => void,
): Promise<void> {
  // Flat out on a server of its own: its backlog (frames waiting in the kernel) would go on into the paced steps.
  await postgres.query('CREATE DATABASE pair_probe');
  await postgres.query('CREATE DATABASE pair');
  await proxy.setDelay(0);
  const probe = await startServer('pair-probe', `postgres://postgres@127.0.0.1:${proxy.port}/pair_probe`);
  const flat = await (async () => {
    try {
      await eventsProcessed(probe);
      await proxy.setDelay(delayMs);
      return figures(await agentEvents(probe, agents, seconds, 0, 'pair-probe', null));
    } finally {
      await probe.stop();
    }
  })();
  // At about half a core: the rate whose CPU is half a core, or what it holds flat out if that is less.
  const firstFeed = Math.max(1, Math.min(flat.events_per_s, Math.round(500_000 / Math.max(1, flat.cpu_us_per_event))));
  let feed = firstFeed;
  const dsn = `postgres://postgres@127.0.0.1:${proxy.port}/pair`;
  await proxy.setDelay(0);
  const a = await startServer('pair-a', dsn);
  let b: BenchServer | null = null;
  try {
    await eventsProcessed(a);
    await proxy.setDelay(delayMs);
    let aloneFrom = a.daemon.logs.length;
    const aloneAt = (rate: number) =>
      counted(
        postgres,
        proxy,
        [a],
        () => agentEvents(a, agents, seconds, rate, 'pair-a', null),
        (f) => Number(f.agents_events_per_s) * seconds,
      );
    let alone = await aloneAt(feed);
    await settle(a);
    // Paced, a group commit is smaller than flat out and an event costs more: the feed is scaled once to half a core.
    const firstAlone = figures(alone.result);
    if (firstAlone.cpu_cores > HALF_CORE * 1.2) {
      feed = Math.max(1, Math.round((feed * HALF_CORE) / firstAlone.cpu_cores));
      aloneFrom = a.daemon.logs.length;
      alone = await aloneAt(feed);
      await settle(a);
    }
    await proxy.setDelay(0);
    b = await startServer('pair-b', dsn);
    await eventsProcessed(b);
    await proxy.setDelay(delayMs);
    const logFrom = [a.daemon.logs.length, b.daemon.logs.length];
    const both = await counted(
      postgres,
      proxy,
      [a, b],
      () => Promise.all([agentEvents(a, agents, seconds, feed, 'pair-a', null), agentEvents(b!, agents, seconds, feed, 'pair-b', null)]),
      ([fa, fb]) => (Number(fa.agents_events_per_s) + Number(fb.agents_events_per_s)) * seconds,
    );
    const [pa, pb] = both.result.map(figures) as [ReturnType<typeof figures>, ReturnType<typeof figures>];
    const one = figures(alone.result);
    report({
      bench: 'pg-latency',
      row: `two servers sharing one PostgreSQL, ${agents} agents each, each fed ${feed} events/s for ${seconds} s`,
      added_round_trip_ms: delayMs,
      feed_per_s: feed,
      feed_rule: 'min(one server alone flat out, 0.5 core / its CPU per event), scaled once by 0.5 / the cores one server alone used at it when over 0.6',
      alone_flat_out: flat,
      first_feed_per_s: firstFeed,
      alone_at_first_feed: firstAlone,
      alone: { ...one, ...pgFigures(alone), elections_lost: elections(a, aloneFrom).lost },
      server_a: pa,
      server_b: pb,
      pair: { ...pgFigures(both), elections_lost: elections(a, logFrom[0]).lost + elections(b, logFrom[1]).lost },
      held_ratio_a: +(pa.events_per_s / one.events_per_s).toFixed(3),
      held_ratio_b: +(pb.events_per_s / one.events_per_s).toFixed(3),
      cpu_per_event_ratio_a: +(pa.cpu_us_per_event / Math.max(1, one.cpu_us_per_event)).toFixed(3),
      cpu_per_event_ratio_b: +(pb.cpu_us_per_event / Math.max(1, one.cpu_us_per_event)).toFixed(3),
      targets: 'each server holds the rate one holds alone (ratio ~1), CPU per event within 1.2x of alone',
    });
  } finally {
    await a.stop();
    await b?.stop();
  }
}

function pgFigures(c: Awaited<ReturnType<typeof counted>>) {
  return {
    postgres_cpu_us_per_event: c.postgres_cpu_us_per_event,
    statements_per_event: c.statements,
    queries_per_event: c.statements_per_event,
    top_statements: c.top_statements,
    round_trips_per_event: c.round_trips_per_event,
    health: c.health,
  };
}
