// /health while 6 agent sessions each send 20 frames of the largest allowed size, and 20 of 9 MB
// (refused: the connection closes, 1009), beside /health at rest, in the same run. The senders run in their own process.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { nodeStartMs, summary } from './load/latency.js';

const AGENT_PASSWORD = 'bench-agent-password';
const SESSIONS = 6;
const FRAMES = 20;
// checkbridge.agentd.max_message_bytes's default (1 MiB): the frame is sized just under it.
const ALLOWED_BYTES = 1024 * 1024 - 4096;
const OVERSIZED_BYTES = 9 * 1024 * 1024;
const REST_MS = 3000;
// Where the daemon's time goes: CHECKBRIDGE_BENCH_CPU_PROF=DIR writes its CPU profile there (a clean stop).
const PROFILE_DIR = process.env.CHECKBRIDGE_BENCH_CPU_PROF;

/** Sequential GET /health until stopped: each answer's latency in ms, and the largest one. */
function probeHealth(v2: string): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${v2}/health`)).arrayBuffer();
      latencies.push(performance.now() - started);
    }
  })();
  return { stop: async () => ((running = false), await loop, latencies) };
}

/** Starts the senders' process; resolves with its line once every frame went out (or its socket closed), and a stop. */
function senders(args: (string | number)[]): Promise<{ line: Record<string, unknown>; stop: () => void }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./load/frame-senders.js', import.meta.url)), ...args.map(String)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ line: JSON.parse(out.split('\n')[0]!) as Record<string, unknown>, stop: () => void child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`frame-senders exited ${code}`)));
  });
}

export async function benchAttackFrames(report: (figure: object) => void): Promise<void> {
  const root = makeTree({});
  const { daemon, v2 } = await benchDaemon(
    root,
    { 'checkbridge.json': { checkbridge: { entity_limit: 0 } } },
    [],
    { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD },
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
  const url = `ws://${String((await daemon.waitFor((l) => l.msg === 'agent WebSocket listening', 30_000)).address)}`;
  const token = (
    (await (await fetch(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64') } })).json()) as {
      access_token: string;
    }
  ).access_token;
  const stored = async (name: string, check: string) =>
    (await fetch(`${v2}/api/core/v2/namespaces/default/events/${name}/${check}`, { headers: { authorization: `Bearer ${token}` } })).status === 200;
  const node_start_ms = nodeStartMs();
  try {
    await sleep(500);
    const rest = probeHealth(v2);
    await sleep(REST_MS);
    const atRest = await rest.stop();
    report({
      bench: 'attack-frames',
      row: 'rest',
      requests: atRest.length,
      ...summary(atRest, 'health'),
      health_max_ms: +Math.max(...atRest).toFixed(1),
      node_start_ms,
    });

    for (const shape of ['output', 'labels']) {
      const sent = performance.now();
      const loaded = probeHealth(v2);
      const allowed = senders([url, AGENT_PASSWORD, `big-${shape}`, SESSIONS, FRAMES, ALLOWED_BYTES, shape]);
      for (let i = 0; i < SESSIONS; i++) while (!(await stored(`big-${shape}-${i}`, 'done'))) await sleep(100);
      const underLoad = await loaded.stop();
      const seconds = (performance.now() - sent) / 1000;
      (await allowed).stop();
      const bytes = SESSIONS * FRAMES * ALLOWED_BYTES;
      report({
        bench: 'attack-frames',
        row: `allowed-frames-${shape}`,
        sessions: SESSIONS,
        frames: FRAMES,
        frame_bytes: ALLOWED_BYTES,
        stored_s: +seconds.toFixed(2),
        mb_per_s: +(bytes / 1e6 / seconds).toFixed(1),
        requests: underLoad.length,
        ...summary(underLoad, 'health'),
        health_max_ms: +Math.max(...underLoad).toFixed(1),
        node_start_ms,
      });
    }

    const refused = probeHealth(v2);
    const oversized = await senders([url, AGENT_PASSWORD, 'huge', SESSIONS, FRAMES, OVERSIZED_BYTES]);
    // Frames that were taken (a backend without the bound) are measured until stored, as the allowed ones are.
    const until = performance.now() + 150_000;
    if (Number(oversized.line.sent) > 0)
      for (let i = 0; i < SESSIONS && performance.now() < until;) (await stored(`huge-${i}`, 'done')) ? (i += 1) : await sleep(100);
    await sleep(500);
    const duringRefusal = await refused.stop();
    oversized.stop();
    report({
      bench: 'attack-frames',
      row: '9MB-frames',
      sessions: SESSIONS,
      frames: FRAMES,
      frame_bytes: OVERSIZED_BYTES,
      sent: oversized.line.sent,
      close_codes: oversized.line.closes,
      requests: duringRefusal.length,
      ...summary(duringRefusal, 'health'),
      health_max_ms: +Math.max(...duringRefusal).toFixed(1),
      node_start_ms,
    });
  } finally {
    await daemon.stop(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL');
    removeTree(root);
  }
}
