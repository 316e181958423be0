// The soak: one daemon holding 2,000 Sensu Go agents and 500 legacy clients' traffic (RabbitMQ and the client socket)
// with handlers running, for SOAK_SECONDS (default 600). Its memory sampled every 10 s, one JSON line each; then the
// verdict: whether RSS and heap plateau over the last half, and whether every event sent was stored.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTree, removeTree } from '../helpers/tree.js';
import { rabbitMissing, startRabbit } from '../servers/rabbitmq.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { runLoad } from './load/child.js';
import { nodeStartMs } from './load/latency.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const AGENTS = Number(process.env.SOAK_AGENTS ?? 2000);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 500);
const SAMPLE_S = 10;
const AGENT_PASSWORD = 'soak-agent-password';
const MB = 1 << 20;

const procStatus = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const mb = (bytes: number) => +(bytes / MB).toFixed(1);

/** The Prometheus families the daemon's /metrics has, summed over their labels. */
async function metricsOf(v2: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${v2}/metrics`)).text();
  const sums: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match) continue;
    sums[match[1]!] = (sums[match[1]!] ?? 0) + Number(match[3]);
    if (match[2]) sums[match[1]! + match[2]] = Number(match[3]);
  }
  return sums;
}

/**
 * Where the resident memory is, from /proc/PID/smaps: glibc's malloc arenas (anonymous, 64 MiB-aligned reservations
 * of the threads), the main heap ([heap], brk), the rest of the anonymous memory (V8's pages among it) and files.
 */
export function residentOf(pid: number): Record<string, number> {
  const ARENA = 64n << 20n;
  const maps: { start: bigint; end: bigint; perms: string; anon: boolean; path: string; kb: number }[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header)
      maps.push({ start: BigInt(`0x${header[1]}`), end: BigInt(`0x${header[2]}`), perms: header[3]!, anon: header[4] === '0', path: header[5]!, kb: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1]!.kb = Number(rss[1]);
  }
  const out = { arenas: 0, arena_rss_mb: 0, brk_rss_mb: 0, other_anon_rss_mb: 0, file_rss_mb: 0 };
  maps.forEach((m, i) => {
    const next = maps[i + 1];
    // An arena: aligned to its 64 MiB, the rest of which is its reserved (---p) tail, or all of it in use.
    const arena =
      m.anon &&
      m.path === '' &&
      m.start % ARENA === 0n &&
      (m.end - m.start === ARENA || (next?.perms === '---p' && next.start === m.end && next.end === m.start + ARENA));
    if (m.path === '[heap]') out.brk_rss_mb += m.kb / 1024;
    else if (arena) [out.arenas, out.arena_rss_mb] = [out.arenas + 1, out.arena_rss_mb + m.kb / 1024];
    else if (m.anon && (m.path === '' || m.path.startsWith('['))) out.other_anon_rss_mb += m.kb / 1024;
    else out.file_rss_mb += m.kb / 1024;
  });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, +v.toFixed(1)]));
}

/** Least-squares slope (per minute) of samples taken at `t_s`, and the range of what is left around that line. */
export function trend(points: readonly { t_s: number; value: number }[]): { slope_per_min: number; growth: number; residual_range: number; range: number } {
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t_s, 0) / n;
  const mv = points.reduce((s, p) => s + p.value, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.t_s - mt) ** 2, 0);
  const slope = sxx === 0 ? 0 : points.reduce((s, p) => s + (p.t_s - mt) * (p.value - mv), 0) / sxx;
  const residuals = points.map((p) => p.value - (mv + slope * (p.t_s - mt)));
  const values = points.map((p) => p.value);
  const span = points[n - 1]!.t_s - points[0]!.t_s;
  return {
    slope_per_min: +(slope * 60).toFixed(3),
    growth: +(slope * span).toFixed(1),
    residual_range: +(Math.max(...residuals) - Math.min(...residuals)).toFixed(1),
    range: +(Math.max(...values) - Math.min(...values)).toFixed(1),
  };
}

/**
 * The keepalive monitor's results over its passes 1..`passes` after the first (time 0, 30 s apart): one per client
 * registered at each. A pass within 2 s of a change in the clients' count is counted at both counts.
 */
function monitorResults(polls: readonly { t: number; count: number }[], monitored: number, passes: number): [number, number] {
  const before = (t: number) => [...polls].reverse().find((p) => p.t <= t)?.count ?? polls[0]!.count;
  const after = (t: number) => polls.find((p) => p.t >= t)?.count ?? monitored;
  let [lo, hi] = [0, 0];
  for (let k = 1; k <= passes; k += 1) [lo, hi] = [lo + before(k * 30_000 - 2000), hi + after(k * 30_000 + 2000)];
  return [lo, hi];
}

/**
 * A plateau: over the last half, the fitted line grows no more than the samples scatter around it (GC's saw-tooth), or
 * less than 2% of the level; a leak is a line that climbs further than its own noise.
 */
function plateauOf(samples: readonly { t_s: number; value: number }[]) {
  const half = samples.filter((s) => s.t_s >= samples[samples.length - 1]!.t_s / 2);
  const first = samples.filter((s) => s.t_s < samples[samples.length - 1]!.t_s / 2);
  const last = trend(half);
  const level = half.reduce((s, p) => s + p.value, 0) / half.length;
  return {
    first_half: first.length > 1 ? trend(first) : null,
    last_half: last,
    last_half_mean: +level.toFixed(1),
    plateau: last.growth <= Math.max(last.residual_range, 0.02 * level),
  };
}

export async function benchSoak(report: (figure: object) => void): Promise<void> {
  // Ten minutes: run when named (`npm run bench -- soak`) or given a length, not as part of every bench.
  if (process.argv[2] !== 'soak' && process.env.SOAK_SECONDS === undefined) return report({ bench: 'soak', skipped: 'run it by name: npm run bench -- soak' });
  const missing = rabbitMissing();
  if (missing) return report({ bench: 'soak', skipped: missing });
  const rabbit = await startRabbit();
  const root = makeTree({});
  const handled = join(root, 'handled');
  const { daemon, socket, v2, pid } = await benchDaemon(
    root,
    {
      'client.json': { client: { name: 'soak', address: '127.0.0.1', subscriptions: [] } },
      'checkbridge.json': { checkbridge: { entity_limit: 0 } },
      'rabbitmq.json': { rabbitmq: { host: '127.0.0.1', port: rabbit.port, user: 'guest', password: 'guest', prefetch: 64 } },
      // Every handled event runs a process: the pipe handler reads the event and counts itself, one byte a run.
      'handlers.json': {
        handlers: {
          soak_pipe: { type: 'pipe', command: `cat >/dev/null; printf x >> ${handled}` },
          soak_set: { type: 'set', handlers: ['soak_pipe'] },
        },
      },
    },
    ['--role', 'both', '--transport', 'rabbitmq'],
    { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD },
    // Node flags for the daemon alone (a V8 heap flag tried against the memory it holds), space-separated.
    (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  try {
    const url = `ws://${String((await daemon.waitFor((l) => l.msg === 'agent WebSocket listening', 30_000)).address)}`;
    await daemon.waitFor((l) => l.msg === 'connected to transport', 30_000);
    const basic = { authorization: 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64') };
    const token = String(((await (await fetch(`${v2}/auth`, { headers: basic })).json()) as { access_token: string }).access_token);
    // An API key for the probe: a 10-minute hold outlives an access token.
    const created = await fetch(`${v2}/api/core/v2/apikeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin' }),
    });
    const apiKey = `Key ${String(created.headers.get('location')).split('/').pop()}`;
    const api = `http://${String((await daemon.waitFor((l) => l.msg === 'legacy API listening')).address)}`;
    const clientsNow = async () => ((await (await fetch(`${api}/clients`)).json()) as { keepalives?: boolean }[]).filter((c) => c.keepalives !== false);
    const processedNow = async () => (await metricsOf(v2)).sensu_go_events_processed ?? 0;
    // The keepalive monitor's first pass is the only event before the load: the loads start right after it, so that
    // every client registers before the second pass, 30 s later, and each later pass has them all.
    const idle = await processedNow();
    for (let waited = 0; (await processedNow()) === idle && waited < 200; waited++) await sleep(250);
    const before = { at: Date.now(), node_e0_ms: nodeStartMs(), load: loadavg(), metrics: await metricsOf(v2), cpu_ms: cpuMs(pid) };
    report({
      bench: 'soak.start',
      seconds: SECONDS,
      agents: AGENTS,
      clients: CLIENTS,
      node_e0_ms: before.node_e0_ms,
      load_avg: before.load.map((l) => +l.toFixed(2)),
    });

    const started = Date.now();
    const samples: Record<string, number>[] = [];
    const sample = async () => {
      const metrics = await metricsOf(v2);
      const line = {
        t_s: Math.round((Date.now() - started) / 1000),
        rss_mb: mb(procStatus(pid, 'VmRSS')),
        heap_used_mb: mb(metrics.nodejs_heap_size_used_bytes ?? 0),
        heap_total_mb: mb(metrics.nodejs_heap_size_total_bytes ?? 0),
        external_mb: mb(metrics.nodejs_external_memory_bytes ?? 0),
        new_space_mb: mb(metrics['nodejs_heap_space_size_total_bytes{space="new"}'] ?? 0),
        // Major (mark-compact) collections so far: between two, the old generation's garbage is resident.
        major_gcs: metrics['nodejs_gc_duration_seconds_count{kind="major"}'] ?? 0,
        ...residentOf(pid),
        cpu_s: +((cpuMs(pid) - before.cpu_ms) / 1000).toFixed(1),
        events_processed: (metrics.sensu_go_events_processed ?? 0) - (before.metrics.sensu_go_events_processed ?? 0),
        agents_connected: metrics.checkbridge_agents_connected ?? 0,
        handled: existsSync(handled) ? statSync(handled).size : 0,
        load1: +loadavg()[0]!.toFixed(2),
      };
      samples.push(line);
      report({ bench: 'soak.sample', ...line });
    };
    // The clients registered, polled until their count holds for 10 s: each pass counts those registered at its time.
    const polls: { t: number; count: number }[] = [];
    const registering = (async () => {
      for (;;) {
        polls.push({ t: Date.now() - before.at, count: (await clientsNow()).length });
        const last = polls[polls.length - 1]!;
        if (last.t > 40_000 && polls.filter((p) => p.t >= last.t - 10_000).every((p) => p.count === last.count)) return;
        await sleep(500);
      }
    })();
    const sampler = setInterval(() => void sample().catch(() => undefined), SAMPLE_S * 1000);
    const [agents, legacy] = await Promise.all([
      runLoad('agent-senders', ['hold', url, AGENT_PASSWORD, v2, apiKey, AGENTS, 20, 10, SECONDS]),
      runLoad('legacy-senders', [rabbit.url, socket, CLIENTS, 5, 20, 10, SECONDS]),
    ]).finally(() => clearInterval(sampler));
    await registering;
    // Sent: what the agents and the clients put on their wires. Settled: the daemon's count of events stored stops moving.
    const processedSince = async () => ((await metricsOf(v2)).sensu_go_events_processed ?? 0) - (before.metrics.sensu_go_events_processed ?? 0);
    const settled = async () => {
      for (let [count, still] = [-1, 0]; ; await sleep(1000)) {
        const now = await processedSince();
        [count, still] = [now, now === count ? still + 1 : 0];
        if (still >= 3) return count;
      }
    };
    // Then one more pass of the keepalive monitor, the only thing left to count: its time says how many passes there
    // were (a loaded event loop delays each a little, never by 15 s), and the count after it is the final one.
    const quiet = await settled();
    const lastPass = await (async () => {
      for (let waited = 0; (await processedSince()) === quiet && waited < 160; waited++) await sleep(250);
      return Date.now() - before.at;
    })();
    const processed = await settled();
    // The handlers run after their events are stored: their count settles a moment later.
    const handlerRuns = () => (existsSync(handled) ? statSync(handled).size : 0);
    for (let waited = 0; handlerRuns() < legacy.status_changes! && waited < 30; waited++) await sleep(1000);
    const sent = {
      agent_events: agents.events_sent! + agents.probes!,
      agent_keepalives: agents.keepalives_sent!,
      amqp_results: legacy.amqp_results!,
      amqp_keepalives: legacy.keepalives!,
      socket_results: legacy.socket_results_ok!,
    };
    const rss = plateauOf(samples.map((s) => ({ t_s: s.t_s!, value: s.rss_mb! })));
    const heap = plateauOf(samples.map((s) => ({ t_s: s.t_s!, value: s.heap_used_mb! })));
    // Events the intake stored: the agents' events and the legacy results (keepalives are not events of this counter),
    // and the keepalive monitor's own results: one per client at each 30-s pass, every client registered by the first.
    const monitored = (await clientsNow()).length;
    const sentEvents = sent.agent_events + sent.amqp_results + sent.socket_results;
    const passes = Math.round(lastPass / 30_000);
    const expected = monitorResults(polls, monitored, passes).map((n) => sentEvents + n);
    report({
      bench: 'soak',
      row: `${AGENTS} agents (keepalive 20 s, event 10 s) and ${CLIENTS} legacy clients (RabbitMQ keepalive 20 s, result 10 s; socket result 10 s), handlers running, ${SECONDS} s`,
      rss_mb: rss,
      heap_used_mb: heap,
      plateau: rss.plateau && heap.plateau,
      peak_rss_mb: mb(procStatus(pid, 'VmHWM')),
      sent,
      socket_refused_connections: legacy.socket_refused,
      events_sent: sentEvents,
      monitored_clients: monitored,
      monitor_passes: passes,
      last_pass_s: +(lastPass / 1000).toFixed(1),
      clients_registered_s: +(polls.find((p) => p.count === monitored)!.t / 1000).toFixed(1),
      events_expected: expected,
      events_processed: processed,
      // The passes' own results are known to a range only when one fell while the clients were still registering.
      nothing_lost: processed >= expected[0]! && processed <= expected[1]!,
      handler_runs: handlerRuns(),
      handler_runs_expected: legacy.status_changes,
      send_to_stored_p50_ms: agents.stored_p50_ms,
      send_to_stored_p99_ms: agents.stored_p99_ms,
      agents_connect_s: agents.connect_s,
      daemon_cpu_s: +((cpuMs(pid) - before.cpu_ms) / 1000).toFixed(1),
      loader_cpu_s: +((legacy.cpu_ms ?? 0) / 1000).toFixed(1),
      node_e0_ms: [before.node_e0_ms, nodeStartMs()],
      load_avg: [before.load.map((l) => +l.toFixed(2)), loadavg().map((l) => +l.toFixed(2))],
      daemon_warnings: daemon.logs.filter((l) => Number(l.level) >= 40).length,
    });
  } finally {
    await daemon.stop('SIGKILL');
    await rabbit.stop();
    removeTree(root);
  }
}
