// The daemon at rest beside the real sensu-backend, same run: start to /health 200, RSS and CPU 20 s after start, and
// the CPU of the 20 s after that (at rest, start-up over) with the RSS at their end.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BIN } from '../helpers/paths.js';
import { freePort } from '../helpers/net.js';
import { SENSU_BACKEND } from '../helpers/sensu-backend.js';
import { nodeStartMs } from './load/latency.js';
import { tree } from './load/vs-servers.js';

const ROUNDS = Number(process.env.REST_ROUNDS ?? 3);
const REST_S = Number(process.env.REST_S ?? 20);
const TICKS = 100; // clock ticks per second on Linux

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds (utime+stime, every thread) and RSS in MB, summed over the process tree. */
function usage(pid: number): { cpu: number; rss: number; threads: number; processes: number } {
  let cpu = 0;
  let rss = 0;
  let threads = 0;
  const pids = tree(pid);
  for (const p of pids) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu += (Number(fields[11]) + Number(fields[12])) / TICKS;
      threads += Number(fields[17]);
      rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { cpu: +cpu.toFixed(2), rss: +rss.toFixed(1), threads, processes: pids.length };
}

/** Polls `url` until it answers 200; the time since `started`, in s. */
async function healthy(url: string, started: number, proc: ChildProcess): Promise<number> {
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${url}: the server exited ${proc.exitCode} before answering`);
    const ok = await fetch(url).then(
      (r) => (r.body?.cancel(), r.status === 200),
      () => false,
    );
    if (ok) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Figures = { start_s: number; rss_mb: number; cpu_s: number; rest_cpu_s: number; rest_rss_mb: number; threads: number; processes: number };

/** Starts one server, times /health, waits until REST_S after start, samples, stops it. */
async function measure(args: { cmd: string; argv: string[]; health: string; env?: NodeJS.ProcessEnv; dir: string }): Promise<Figures> {
  const started = performance.now();
  const proc = spawn(args.cmd, args.argv, { env: { ...process.env, ...args.env }, stdio: ['ignore', 'ignore', 'ignore'] });
  try {
    const start = await healthy(args.health, started, proc);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, REST_S * 1000 - (performance.now() - started))));
    const u = usage(proc.pid!);
    await new Promise((resolve) => setTimeout(resolve, REST_S * 1000));
    const later = usage(proc.pid!);
    const rest = { rest_cpu_s: +(later.cpu - u.cpu).toFixed(2), rest_rss_mb: later.rss };
    return { start_s: +start.toFixed(3), rss_mb: u.rss, cpu_s: u.cpu, ...rest, threads: u.threads, processes: u.processes };
  } finally {
    proc.kill('SIGKILL');
    await new Promise((resolve) => (proc.exitCode === null && proc.signalCode === null ? proc.once('exit', resolve) : resolve(null)));
    rmSync(args.dir, { recursive: true, force: true });
  }
}

async function checkbridge(): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-rest-'));
  mkdirSync(join(dir, 'conf.d'));
  writeFileSync(join(dir, 'conf.d', 'client.json'), JSON.stringify({ client: { name: 'rest', address: '127.0.0.1', subscriptions: [] } }));
  const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const [socket, api, agent, v2, agentd] = ports.map(String);
  const argv = [...(process.env.REST_NODE_ARGS?.split(' ').filter(Boolean) ?? []), process.env.CHECKBRIDGE_BENCH_BIN ?? BIN, 'run', join(dir, 'conf.d')];
  argv.push(
    '--state-dir',
    join(dir, 'state'),
    '--socket-port',
    socket!,
    '--api-port',
    api!,
    '--agent-port',
    agent!,
    '--v2-port',
    v2!,
    '--agentd-port',
    agentd!,
  );
  return measure({ cmd: process.execPath, argv, health: `http://127.0.0.1:${v2}/health`, env: { CHECKBRIDGE_ADMIN_PASSWORD: 'bench-admin-password' }, dir });
}

async function sensuBackend(): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-rest-backend-'));
  const [api, agent, dash, client, peer] = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  const [clientUrl, peerUrl] = [`http://127.0.0.1:${client}`, `http://127.0.0.1:${peer}`];
  const argv = ['start', '--config-file', '/dev/null', '--state-dir', dir, '--cache-dir', join(dir, 'cache'), '--api-listen-address', `127.0.0.1:${api}`];
  argv.push('--api-url', `http://127.0.0.1:${api}`, '--agent-host', '127.0.0.1', '--agent-port', String(agent), '--dashboard-host', '127.0.0.1');
  argv.push('--dashboard-port', String(dash), '--disable-platform-metrics', '--log-level', 'warn');
  argv.push('--etcd-listen-client-urls', clientUrl, '--etcd-listen-peer-urls', peerUrl, '--etcd-initial-cluster', `default=${peerUrl}`);
  argv.push('--etcd-advertise-client-urls', clientUrl, '--etcd-initial-advertise-peer-urls', peerUrl);
  return measure({ cmd: SENSU_BACKEND, argv, health: `http://127.0.0.1:${api}/health`, dir });
}

/** `npm run bench -- rest`: three rounds, interleaved, then the medians; the real backend only where it exists. */
export async function benchRest(report: (figure: object) => void): Promise<void> {
  const backend = existsSync(SENSU_BACKEND);
  if (!backend) report({ bench: 'rest', skipped: `sensu-backend is absent (${SENSU_BACKEND}): checkbridge alone` });
  const node = nodeStartMs();
  const rounds: { checkbridge: Figures; sensu_backend: Figures | null }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const ours = await checkbridge();
    const theirs = backend ? await sensuBackend() : null;
    rounds.push({ checkbridge: ours, sensu_backend: theirs });
    report({ bench: 'rest', round, checkbridge: ours, sensu_backend: theirs, load: loadavg()[0]!.toFixed(2) });
  }
  for (const figure of ['start_s', 'rss_mb', 'cpu_s', 'rest_cpu_s', 'rest_rss_mb'] as const) {
    const ours = median(rounds.map((r) => r.checkbridge[figure]));
    const theirs = backend ? median(rounds.map((r) => r.sensu_backend![figure])) : null;
    const ratio = theirs ? +(ours / theirs).toFixed(2) : null;
    report({ bench: 'rest', figure, median_of: ROUNDS, checkbridge: ours, sensu_backend: theirs, ratio, node_e0_ms: node, load: loadavg()[0]!.toFixed(2) });
  }
}

// Run directly as well: node dist/test/bench/rest.bench.js
if (process.argv[1]?.endsWith('rest.bench.js')) {
  await benchRest((f) => process.stdout.write(JSON.stringify(f) + '\n'));
}
