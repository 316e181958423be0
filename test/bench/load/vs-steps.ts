// The comparison's steps, each run the same way against either server; each resolves with its figures.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { summary } from './latency.js';
import { runWrk } from './wrk.js';
import { AGENT_PASSWORD, treeCpuMs, treeRss, type Server } from './vs-servers.js';

export type Figures = Record<string, { value: number; unit: string }>;
type Line = Record<string, unknown>;
const MB = 1 << 20;

/** Runs vs-agents.js; `onLine` sees each phase line as it is printed (to sample the server then). */
function agents(args: (string | number)[], onLine: (line: Line) => void): Promise<Line[]> {
  const proc = spawn(process.execPath, [fileURLToPath(new URL('./vs-agents.js', import.meta.url)), ...args.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  let [buffer, stderr] = ['', ''];
  proc.stdout.on('data', (chunk: Buffer) => {
    const parts = (buffer + chunk.toString()).split('\n');
    buffer = parts.pop()!;
    for (const part of parts.filter(Boolean)) {
      lines.push(JSON.parse(part) as Line);
      onLine(lines.at(-1)!);
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    proc.once('exit', (code) => (code === 0 ? resolve(lines) : reject(new Error(`vs-agents ${args[0]} exited ${code}: ${stderr.slice(-2000)}`)))),
  );
}

async function get(server: Server, key: string, path: string, again = 3): Promise<{ status: number; body: unknown }> {
  try {
    const reply = await fetch(`${server.api}${path}`, { headers: { authorization: key } });
    return { status: reply.status, body: await reply.json().catch(() => null) };
  } catch (error) {
    // A pooled connection the server closed meanwhile fails the read: read again.
    if (again > 0) return get(server, key, path, again - 1);
    throw new Error(`${server.name}: GET ${path}: ${(error as Error).message}`);
  }
}

/**
 * RSS and CPU of the whole process tree `idleS` after its spawn, with nothing asked of it but `/health` and the admin's
 * creation; then its CPU in the next `idleS` (at rest, start-up over) and its RSS at their end.
 */
export async function idle(server: Server, idleS: number): Promise<Figures> {
  await sleep(Math.max(0, server.spawnedAt + idleS * 1000 - performance.now()));
  const [rss, cpu] = [treeRss(server.pid), treeCpuMs(server.pid)];
  await sleep(idleS * 1000);
  return {
    start_to_health_s: { value: +server.startS.toFixed(2), unit: 's' },
    idle_rss_mb: { value: +(rss / MB).toFixed(1), unit: 'MB' },
    idle_cpu_s: { value: cpu / 1000, unit: `s CPU in the first ${idleS} s` },
    rest_cpu_s: { value: (treeCpuMs(server.pid) - cpu) / 1000, unit: `s CPU from ${idleS} to ${2 * idleS} s after the spawn` },
    rest_rss_mb: { value: +(treeRss(server.pid) / MB).toFixed(1), unit: `MB ${2 * idleS} s after the spawn` },
  };
}

/** 1,000 events stored through `PUT`, then `GET` of the namespace's event list one at a time: p50/p99. */
export async function list1000(server: Server, key: string, gets: number): Promise<Figures> {
  for (let i = 0; i < 1000; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, async (_, j) => {
        const body = {
          entity: { entity_class: 'proxy', metadata: { name: `list-${i + j}` } },
          check: { metadata: { name: 'list' }, interval: 60, status: 0, output: 'ok' },
        };
        const reply = await fetch(`${server.api}/api/core/v2/namespaces/default/events/list-${i + j}/list`, {
          method: 'PUT',
          headers: { authorization: key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (reply.status >= 300) throw new Error(`${server.name}: PUT event list-${i + j}/list answered ${reply.status}: ${await reply.text()}`);
      }),
    );
  }
  const times: number[] = [];
  let listed = 0;
  for (let k = 0; k < gets + 3; k++) {
    const started = performance.now();
    const { status, body } = await get(server, key, '/api/core/v2/namespaces/default/events');
    if (status !== 200 || !Array.isArray(body)) throw new Error(`${server.name}: GET events answered ${status}`);
    // Three warm-up reads first.
    if (k >= 3) times.push(performance.now() - started);
    listed = body.length;
  }
  const { list_p50_ms, list_p99_ms } = summary(times, 'list');
  return {
    get_events_listed: { value: listed, unit: 'events' },
    get_events_p50_ms: { value: list_p50_ms!, unit: 'ms' },
    get_events_p99_ms: { value: list_p99_ms!, unit: 'ms' },
  };
}

/** Authenticated `PUT` of events with wrk (32 connections, 5 s), after a 2 s warm-up. */
export async function putWrk(server: Server, key: string): Promise<Figures> {
  await runWrk(tmpdir(), server.api, key, 2);
  const run = await runWrk(tmpdir(), server.api, key, 5);
  return {
    put_requests_per_s: { value: run.requests_per_s, unit: 'requests/s' },
    put_p99_ms: { value: run.p99_ms, unit: 'ms' },
    put_non_2xx: { value: run.non_2xx, unit: 'answers' },
  };
}

/** `agents` agents send `perAgent` events flat out and a `done`; stored once every agent's `done` can be read back. */
export async function rate(server: Server, key: string, agentCount: number, perAgent: number, deadlineS: number): Promise<Figures> {
  let cpuConnected = 0;
  const lines = await agents(['rate', server.agentUrl, AGENT_PASSWORD, agentCount, perAgent, deadlineS], (line) => {
    if (line.phase === 'connected') cpuConnected = treeCpuMs(server.pid);
  });
  const sent = lines.find((l) => l.phase === 'sent')!;
  const names = sent.names as string[];
  // Read one agent at a time: a full listing would cost the server more than the events do.
  const drainBy = Date.now() + deadlineS * 1000;
  let stored = 0;
  for (const name of names) {
    while (Date.now() < drainBy && (await get(server, key, `/api/core/v2/namespaces/default/events/${name}/done`)).status !== 200) await sleep(50);
    if (Date.now() < drainBy) stored += 1;
  }
  const [storedAt, cpu] = [Date.now(), treeCpuMs(server.pid) - cpuConnected];
  const events = Number(sent.events);
  return {
    [`rate${agentCount}_connected`]: { value: names.length, unit: 'agents' },
    [`rate${agentCount}_all_stored`]: { value: stored === names.length ? 1 : 0, unit: 'yes=1' },
    [`rate${agentCount}_events_per_s`]: { value: Math.round(events / ((storedAt - Number(sent.started_at_ms)) / 1000)), unit: 'events/s' },
    [`rate${agentCount}_cpu_us_per_event`]: { value: Math.round((cpu * 1000) / events), unit: 'us CPU/event' },
  };
}

/** Every stored `bench` event of the agents named `prefix-*` (the sum of their histories), once the count stops growing. */
async function storedEvents(server: Server, key: string, prefix: string, sent: number): Promise<number> {
  let [count, previous] = [-1, -2];
  for (let tries = 0; tries < 15 && count < sent && count !== previous; tries++) {
    await sleep(2000);
    const { body } = await get(server, key, '/api/core/v2/namespaces/default/events');
    const events = (Array.isArray(body) ? body : []) as {
      entity: { metadata: { name: string } };
      check: { metadata: { name: string }; history?: unknown[] };
    }[];
    previous = count;
    count = events
      .filter((e) => e.check.metadata.name === 'bench' && e.entity.metadata.name.startsWith(`${prefix}-`))
      .reduce((sum, e) => sum + (e.check.history?.length ?? 0), 0);
  }
  return count;
}

/** `agentCount` agents connect (until the deadline) and are held `holdS` seconds: keepalive every 20 s, event every 10 s, a probe's latency. */
export async function held(server: Server, key: string, agentCount: number, holdS: number, deadlineS: number, idleRss: number): Promise<Figures> {
  const prefix = `held${agentCount}`;
  const cpuStart = treeCpuMs(server.pid);
  let [cpuConnected, cpuEnd, rssEnd, rssPeak] = [0, 0, 0, 0];
  const sampler = setInterval(() => void (rssPeak = Math.max(rssPeak, treeRss(server.pid))), 250);
  const lines = await agents(['hold', server.agentUrl, AGENT_PASSWORD, server.api, key, prefix, agentCount, holdS, deadlineS], (line) => {
    if (line.phase === 'connected') cpuConnected = treeCpuMs(server.pid);
    if (line.phase === 'end') [cpuEnd, rssEnd] = [treeCpuMs(server.pid), treeRss(server.pid)];
  }).finally(() => clearInterval(sampler));
  const [connected, end] = [lines.find((l) => l.phase === 'connected')!, lines.find((l) => l.phase === 'end')!];
  const agentsHeld = Number(connected.connected);
  const sent = Number(end.events_sent);
  const messages = sent + Number(end.keepalives_sent);
  const stored = await storedEvents(server, key, prefix, sent);
  const n = agentCount;
  return {
    [`held${n}_connected`]: { value: agentsHeld, unit: `agents of ${n}` },
    [`held${n}_connect_s`]: { value: Number(connected.connect_s), unit: 's' },
    [`held${n}_connect_cpu_s`]: { value: (cpuConnected - cpuStart) / 1000, unit: 's CPU' },
    [`held${n}_events_stored_pct`]: { value: +((100 * stored) / Math.max(1, sent)).toFixed(2), unit: `% of events sent` },
    [`held${n}_p50_ms`]: { value: Number(end.stored_p50_ms), unit: 'ms send-to-stored' },
    [`held${n}_p99_ms`]: { value: Number(end.stored_p99_ms), unit: 'ms send-to-stored' },
    [`held${n}_peak_rss_mb`]: { value: +(rssPeak / MB).toFixed(1), unit: 'MB' },
    [`held${n}_cpu_us_per_message`]: { value: Math.round(((cpuEnd - cpuConnected) * 1000) / Math.max(1, messages)), unit: 'us CPU/event or keepalive' },
    [`held${n}_kb_per_agent`]: { value: Math.round((rssEnd - idleRss) / 1024 / Math.max(1, agentsHeld)), unit: 'KB/agent held' },
  };
}
