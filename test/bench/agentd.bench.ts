import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { runLoad } from './load/child.js';
import { median, nodeStartMs } from './load/latency.js';

const AGENT_PASSWORD = 'bench-agent-password';
const RUNS = 3;
// 10,000 agents held 60 s (keepalive every 20 s, event every 10 s); 500 agents sending flat out.
const HELD = Number(process.env.CHECKBRIDGE_BENCH_AGENTS ?? 10_000);
const HOLD_S = Number(process.env.CHECKBRIDGE_BENCH_AGENT_HOLD_S ?? 60);
const RATE_AGENTS = 500;
// Evidence of where the daemon's time goes: CHECKBRIDGE_BENCH_CPU_PROF=DIR writes its CPU profile there (a clean stop).
const PROFILE_DIR = process.env.CHECKBRIDGE_BENCH_CPU_PROF;
// One row only (`rate`, `formats` or `held`), to profile it alone.
const ONLY = process.env.CHECKBRIDGE_BENCH_AGENTD_ONLY;
// Runs of several seconds each (50,500 events; the socket's 50,000 results): a second-long run measured the noise.
const PER_AGENT = Number(process.env.CHECKBRIDGE_BENCH_PER_AGENT ?? 100);
const SOCKET_CONNECTIONS = 500;

import type { Json } from '../../src/json.js';

// The daemon's CPU time (user + system, ms): per event it depends far less on what else the machine runs than rates do.
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
// The resident size now (sampled through the hold: the process's own peak would include the flat-out row before it).
const rssOf = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const rssNow = (pid: number) => rssOf(pid, 'VmRSS');

function countWarnings(lines: Record<string, unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    if (Number(line.level) < 40) continue;
    // A slow read names its statement: which one says where the time went.
    const key = line.what ? `${String(line.msg)}: ${String(line.what)}` : String(line.msg);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Sensu Go agents simulated in a second process over the agent WebSocket, beside the socket intake in the same run. */
export async function benchAgentd(report: (figure: object) => void): Promise<void> {
  const root = makeTree({});
  const { daemon, socket, v2, pid } = await benchDaemon(
    root,
    {
      'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } },
      'checkbridge.json': { checkbridge: { entity_limit: 0 } },
    },
    [],
    { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD },
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
  const line = await daemon.waitFor((l) => l.msg === 'agent WebSocket listening', 30_000);
  const url = `ws://${String(line.address)}`;
  // A loaded machine can answer a login busy (password checks in the pool): tried again, a second apart.
  const login = async (): Promise<string> => {
    for (let attempt = 0; ; attempt++) {
      const reply = await fetch(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64') } });
      const body = (await reply.json()) as Json;
      if (typeof body.access_token === 'string') return body.access_token;
      if (attempt >= 30) throw new Error(`login: ${reply.status} ${JSON.stringify(body)}`);
      await sleep(1000);
    }
  };
  let token = await login();
  // A loaded machine stretches the rows past the access token's lifetime: an expired one is replaced.
  const get = async (path: string, again = true): Promise<Json[]> => {
    const reply = await fetch(`${v2}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await reply.json()) as unknown;
    if (reply.status === 401 && again) return ((token = await login()), get(path, false));
    if (!Array.isArray(body)) throw new Error(`GET ${path}: ${JSON.stringify(body)}`);
    return body as Json[];
  };
  const nodeMs = nodeStartMs();
  try {
    if (!ONLY || ONLY === 'rate') await benchRate();
    if (!ONLY || ONLY === 'formats') await benchFormats();
    if (!ONLY || ONLY === 'held') await benchHeld();
  } finally {
    await daemon.stop(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL');
    removeTree(root);
  }

  async function benchRate(): Promise<void> {
    await runLoad('socket-senders', [socket, 100, 40, 8]); // warm-up
    const socketRuns: number[] = [];
    const socketCpu: number[] = [];
    const socketLoaderCpu: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const before = cpuMs(pid);
      const run = await runLoad('socket-senders', [socket, 100, SOCKET_CONNECTIONS, 8]);
      socketRuns.push(run.results_per_s!);
      socketCpu.push(Math.round(((cpuMs(pid) - before) * 1000) / run.results!));
      socketLoaderCpu.push(run.cpu_ms!);
    }
    const socketRate = median(socketRuns);
    // Warm-up, as the socket's: the agents' entities exist and the path is compiled before anything is measured.
    await sendAndStore(2);
    const wsRuns: number[] = [];
    const wsCpu: number[] = [];
    const wsLoaderCpu: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      // Counted from before the handshakes: the agents' connections are part of what the daemon does for them.
      const before = cpuMs(pid);
      const sent = await sendAndStore(PER_AGENT);
      wsRuns.push(Math.round((RATE_AGENTS * (PER_AGENT + 1)) / ((sent.stored_at_ms! - sent.started_at_ms!) / 1000)));
      wsCpu.push(Math.round(((sent.cpu_at_stored_ms! - before) * 1000) / (RATE_AGENTS * (PER_AGENT + 1))));
      wsLoaderCpu.push(sent.cpu_ms!);
    }
    const wsRate = median(wsRuns);
    report({
      bench: 'agentd-events',
      row: `events through the agent WebSocket, ${RATE_AGENTS} agents sending flat out, ${PER_AGENT + 1} each, until all stored`,
      events_per_s: wsRate,
      runs: wsRuns,
      baseline: 'socket intake, batched (results/s, same daemon, same run)',
      baseline_per_s: Math.round(socketRate),
      baseline_runs: socketRuns,
      ratio: +(wsRate / socketRate).toFixed(3),
      target_ratio: 0.8,
      // The same comparison in the daemon's CPU per event (socket's over the WebSocket's): the load generators share the machine.
      daemon_cpu_us_per_event: median(wsCpu),
      daemon_cpu_us_runs: wsCpu,
      baseline_daemon_cpu_us_per_result: median(socketCpu),
      baseline_daemon_cpu_us_runs: socketCpu,
      cpu_ratio: +(median(socketCpu) / median(wsCpu)).toFixed(3),
      loader_cpu_ms_runs: wsLoaderCpu,
      baseline_loader_cpu_ms_runs: socketLoaderCpu,
      node_e0_ms: nodeMs,
    });
  }

  /** The same flat-out events as protobuf and as JSON, runs interleaved: the daemon's CPU and the bytes per event of each. */
  async function benchFormats(): Promise<void> {
    await sendAndStore(2, 'protobuf');
    const runs = { json: [] as number[], protobuf: [] as number[] };
    const bytes = { json: 0, protobuf: 0 };
    const events = RATE_AGENTS * (PER_AGENT + 1);
    for (let r = 0; r < RUNS; r++) {
      for (const format of ['json', 'protobuf'] as const) {
        const before = cpuMs(pid);
        const sent = await sendAndStore(PER_AGENT, format);
        runs[format].push(Math.round(((sent.cpu_at_stored_ms! - before) * 1000) / events));
        bytes[format] = sent.bytes_per_event!;
      }
    }
    report({
      bench: 'agentd-formats',
      row: `the same events as protobuf and as JSON, ${RATE_AGENTS} agents sending flat out, ${PER_AGENT + 1} each, runs interleaved`,
      protobuf_daemon_cpu_us_per_event: median(runs.protobuf),
      protobuf_daemon_cpu_us_runs: runs.protobuf,
      json_daemon_cpu_us_per_event: median(runs.json),
      json_daemon_cpu_us_runs: runs.json,
      cpu_ratio: +(median(runs.protobuf) / median(runs.json)).toFixed(3),
      protobuf_bytes_per_event: bytes.protobuf,
      json_bytes_per_event: bytes.json,
      bytes_ratio: +(bytes.protobuf / bytes.json).toFixed(3),
      node_e0_ms: nodeMs,
    });
  }

  /** RATE_AGENTS agents send `perAgent` events flat out and one `done`; resolves once every `done` is stored. */
  async function sendAndStore(perAgent: number, format: 'json' | 'protobuf' = 'json'): Promise<Record<string, number>> {
    const sent = await runLoad('agent-senders', ['rate', url, AGENT_PASSWORD, RATE_AGENTS, perAgent, format]);
    // Done when every agent's last event is stored (a socket's frames are taken in order), read one agent at a time: a
    // listing of all 1,500 events costs the daemon ~70 ms a poll, which the drain would count as the events' own CPU.
    for (let agent = 0; agent < RATE_AGENTS;) {
      const response = await fetch(`${v2}/api/core/v2/namespaces/default/events/rate-${agent}/done`, { headers: { authorization: `Bearer ${token}` } });
      const done = response.status === 200 ? ((await response.json()) as Json) : (await response.text(), null);
      if (response.status === 401) token = await login();
      else if (done && Number(done.timestamp) * 1000 >= sent.started_at_ms! - 1000) agent += 1;
      else await sleep(50);
    }
    const stored = { ...sent, stored_at_ms: Date.now(), cpu_at_stored_ms: cpuMs(pid) };
    // Each run's `done` events are told apart by their timestamps: the next starts a second later.
    await sleep(1100);
    return stored;
  }

  async function benchHeld(): Promise<void> {
    let rssPeak = 0;
    const sampler = setInterval(() => void (rssPeak = Math.max(rssPeak, rssNow(pid))), 250);
    const [cpuBefore, wallBefore, logsBefore] = [cpuMs(pid), performance.now(), daemon.logs.length];
    const held = await runLoad('agent-senders', ['hold', url, AGENT_PASSWORD, v2, token, HELD, 20, 10, HOLD_S]);
    clearInterval(sampler);
    const cpuPercent = Math.round((100 * (cpuMs(pid) - cpuBefore)) / (performance.now() - wallBefore));
    rssPeak = Math.max(rssPeak, rssNow(pid));
    await sleep(2000);
    const entities = (await get('/api/core/v2/namespaces/default/entities')).filter((e) => String(e.metadata.name).startsWith('held-'));
    const events = (await get('/api/core/v2/namespaces/default/events?fieldSelector=event.check.name%20%3D%3D%20bench')).filter((e) =>
      String(e.entity.metadata.name).startsWith('held-'),
    );
    const storedEvents = events.reduce((sum, e) => sum + (e.check.history?.length ?? 0), 0);
    const freshest = held.last_send_s! - 20;
    report({
      bench: 'agentd-held',
      row: `${HELD} agents held ${HOLD_S} s, keepalive every 20 s, event every 10 s`,
      agents: HELD,
      connect_s: held.connect_s,
      keepalives_sent: held.keepalives_sent,
      entities_stored: entities.length,
      entities_seen_in_last_20s: entities.filter((e) => Number(e.last_seen) >= freshest).length,
      events_sent: held.events_sent,
      events_stored: storedEvents,
      probes: held.probes,
      send_to_stored_p50_ms: held.stored_p50_ms,
      send_to_stored_p99_ms: held.stored_p99_ms,
      send_to_stored_max_ms: held.stored_max_ms,
      daemon_peak_rss_mb: Math.round(rssPeak / (1 << 20)),
      daemon_peak_rss_mb_whole_run: Math.round(rssOf(pid, 'VmHWM') / (1 << 20)),
      // Of one core, over the connections and the hold.
      daemon_cpu_percent: cpuPercent,
      // Warnings and errors the daemon logged over the hold (a slow datastore read or log sync says so), by message.
      daemon_warnings: countWarnings(daemon.logs.slice(logsBefore)),
      targets: 'every keepalive and event stored, p99 < 1000 ms, RSS < 1024 MB',
      node_e0_ms: nodeMs,
    });
  }
}
