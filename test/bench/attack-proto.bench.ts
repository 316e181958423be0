// /health while one agent (the agent password is enough) sends protobuf events of 1,048,505 bytes packed with 349,491
// empty check hooks (about 34 MB as JSON once decoded, unbounded), two a second, beside /health at rest, in the same
// run. CHECKBRIDGE_BENCH_BEFORE_BIN=path/to/bin/checkbridge measures another build (the code before the bound) first,
// in the same run, one row each: build "before" and build "after" (this one).
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { nodeStartMs, summary } from './load/latency.js';

const AGENT_PASSWORD = 'bench-agent-password';
const REST_S = Number(process.env.CHECKBRIDGE_BENCH_REST_S ?? 5);
const ATTACK_S = Number(process.env.CHECKBRIDGE_BENCH_ATTACK_S ?? 10);
const HOOKS = 349_491;

const varint = (value: number): Buffer => {
  const out: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 128)) out.push((value % 128) | 0x80);
  out.push(value);
  return Buffer.from(out);
};
const field = (number: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([varint(number * 8 + 2), varint(body.length), body]);
};
const int = (number: number, value: number) => Buffer.concat([varint(number * 8), varint(value)]);

/** The frame: an event (3) whose check (metadata 38, interval 5, executed 23, status 28) has empty hooks (34). */
function attackFrame(): Buffer {
  const hook = field(34);
  const hooks = Buffer.alloc(hook.length * HOOKS);
  for (let i = 0; i < HOOKS; i++) hook.copy(hooks, i * hook.length);
  const check = field(3, field(38, field(1, Buffer.from('bloat'))), int(5, 60), int(23, Math.floor(Date.now() / 1000)), int(28, 1), hooks);
  return Buffer.concat([Buffer.from('event\n'), check]);
}

/** /health polled one request after another for `seconds`: every latency, in ms. */
async function pollHealth(v2: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await (await fetch(`${v2}/health`)).arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

// The daemon's CPU time so far (user + system), in ms: what the attack costs it, whatever else loads the machine.
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function openAgent(url: string, name: string): Promise<WebSocket> {
  const authorization = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');
  const ws = new WebSocket(url, {
    headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', authorization, accept: 'application/octet-stream' },
    perMessageDeflate: false,
  });
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('unexpected-response', () => reject(new Error(`${name} refused`))));
}

/** One build's daemon: /health at rest, then while the frames arrive (two a second, never more than two unsent). */
async function measure(build: string, bin: string | undefined, frame: Buffer, report: (figure: object) => void): Promise<void> {
  const root = makeTree({});
  // benchDaemon starts the build CHECKBRIDGE_BENCH_BIN names (this one's when unset).
  const saved = process.env.CHECKBRIDGE_BENCH_BIN;
  if (bin) process.env.CHECKBRIDGE_BENCH_BIN = bin;
  else delete process.env.CHECKBRIDGE_BENCH_BIN;
  const started = benchDaemon(root, { 'checkbridge.json': { checkbridge: { entity_limit: 0 } } }, [], { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD });
  if (saved === undefined) delete process.env.CHECKBRIDGE_BENCH_BIN;
  else process.env.CHECKBRIDGE_BENCH_BIN = saved;
  const { daemon, v2, pid } = await started;
  try {
    const url = `ws://${String((await daemon.waitFor((l) => l.msg === 'agent WebSocket listening', 30_000)).address)}`;
    const ws = await openAgent(url, 'bloater');
    // Its keepalive first (entity 2: metadata 14, system 3): the agent is registered, and the codec loaded, before the rest row.
    ws.send(Buffer.concat([Buffer.from('keepalive\n'), field(2, field(14, field(1, Buffer.from('bloater'))), field(3, field(1, Buffer.from('bloater'))))]));
    const token = (
      (await (await fetch(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64') } })).json()) as {
        access_token: string;
      }
    ).access_token;
    const get = (path: string) => fetch(`${v2}/api/core/v2/namespaces/default/${path}`, { headers: { authorization: `Bearer ${token}` } });
    const registered = async () => {
      const answer = await get('entities/bloater');
      await answer.arrayBuffer();
      return answer.status === 200;
    };
    while (!(await registered())) await sleep(100);
    await sleep(1000);
    const cpuStart = cpuMs(pid);
    const rest = await pollHealth(v2, REST_S);
    const cpuRest = cpuMs(pid) - cpuStart;
    const rssRest = rssMb(pid);
    let sent = 0;
    const sender = setInterval(() => {
      if (ws.bufferedAmount > frame.length) return;
      ws.send(frame);
      ws.send(frame);
      sent += 2;
    }, 1000);
    const cpuAttackStart = cpuMs(pid);
    const attacked = await pollHealth(v2, ATTACK_S);
    clearInterval(sender);
    const cpuAttack = cpuMs(pid) - cpuAttackStart;
    const rssAttack = rssMb(pid);
    const stored = await get('events/bloater/bloat');
    const storedBytes = stored.status === 200 ? (await stored.arrayBuffer()).byteLength : 0;
    // Refusals past a connection's first ten are counted and said when it ends.
    ws.terminate();
    await daemon.waitFor((l) => l.msg === 'agent disconnected' && l.agent === 'bloater', 60_000);
    const refusals = daemon.logs.filter((l) => l.agent === 'bloater' && String(l.msg).startsWith('agent message refused: the protobuf Event is too large'));
    const counted = daemon.logs.filter((l) => l.agent === 'bloater' && l.msg === 'agent messages refused (counted, not logged one by one)');
    report({
      bench: 'attack-proto',
      build,
      frame_bytes: frame.length,
      hooks: HOOKS,
      attack_s: ATTACK_S,
      frames_sent: sent,
      refused_too_large: refusals.length + counted.reduce((sum, l) => sum + Number(l.refused), 0),
      stored_event_bytes: storedBytes,
      ...summary(rest, 'health_rest'),
      ...summary(attacked, 'health_attack'),
      health_rest_max_ms: +Math.max(...rest).toFixed(2),
      health_attack_max_ms: +Math.max(...attacked).toFixed(2),
      health_rest_n: rest.length,
      health_attack_n: attacked.length,
      daemon_cpu_ms_per_s_rest: +(cpuRest / REST_S).toFixed(0),
      daemon_cpu_ms_per_s_attack: +(cpuAttack / ATTACK_S).toFixed(0),
      rss_rest_mb: +rssRest.toFixed(0),
      rss_attack_mb: +rssAttack.toFixed(0),
      node_e_0_ms: nodeStartMs(),
    });
  } finally {
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}

export async function benchAttackProto(report: (figure: object) => void): Promise<void> {
  const frame = attackFrame();
  const before = process.env.CHECKBRIDGE_BENCH_BEFORE_BIN;
  if (before) await measure('before', before, frame, report);
  await measure('after', process.env.CHECKBRIDGE_BENCH_BIN, frame, report);
}
