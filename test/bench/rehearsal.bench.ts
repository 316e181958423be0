import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { runLoad } from './load/child.js';
import { median, nodeStartMs } from './load/latency.js';

// CPU of a process (every thread: the sandbox's too) in milliseconds, from /proc (clock ticks of 10 ms).
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** Waits until the process is idle (under 20 ms of CPU in 500 ms): what it still does for the last results is counted. */
async function settle(pid: number): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const before = cpuMs(pid);
    await sleep(500);
    if (cpuMs(pid) - before < 20) return;
  }
}

const RUNS = 3;
const PER_CONNECTION = 100;
const CONNECTIONS = Number(process.env.REHEARSAL_BENCH_CONNECTIONS ?? 100);
// A directory to write both daemons' CPU profiles to (node --cpu-prof): where the rehearsal's time goes. Its figures
// are the profiler's, not the daemon's: for reading the profiles only.
const PROFILE_DIR = process.env.REHEARSAL_BENCH_PROFILE;
const profile = (name: string) => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}/${name}`] : []);

/**
 * The rehearsal's cost: two daemons with the same conf.d (100 checks handled by one UDP handler, so every result
 * goes through the pipeline of compile's own filters in the rehearsal), one with --no-rehearsal, fed the socket-intake load in
 * turn; daemon CPU per result, counted until each is idle again.
 */
export async function benchRehearsal(report: (figure: object) => void): Promise<void> {
  const checks = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`check_${i}`, { command: 'true', interval: 60, subscribers: ['nobody'] }]));
  const conf = {
    'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } },
    'checkbridge.json': { checkbridge: { entity_limit: 0 } },
    'handlers.json': { handlers: { default: { type: 'udp', socket: { host: '127.0.0.1', port: 9 } } } },
    'checks.json': { checks },
  };
  const roots = [makeTree({}), makeTree({})];
  const on = await benchDaemon(roots[0]!, conf, [], {}, profile('on'));
  const off = await benchDaemon(roots[1]!, conf, ['--no-rehearsal'], {}, profile('off'));
  try {
    for (const d of [on, off]) await runLoad('socket-senders', [d.socket, PER_CONNECTION, 20, 8]);
    const perResult: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let r = 0; r < RUNS; r++)
      for (const [name, d] of [
        ['on', on],
        ['off', off],
      ] as const) {
        await settle(d.pid);
        const before = cpuMs(d.pid);
        const load = await runLoad('socket-senders', [d.socket, PER_CONNECTION, CONNECTIONS, 8]);
        await settle(d.pid);
        perResult[name].push(((cpuMs(d.pid) - before) * 1000) / load.results!);
      }
    const auth = { authorization: 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64') };
    const token = ((await (await fetch(`${on.v2}/auth`, { headers: auth })).json()) as { access_token: string }).access_token;
    const rehearsal = (await (await fetch(`${on.v2}/api/checkbridge/v1/rehearsal`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      seen: number;
    };
    const sent = (RUNS * CONNECTIONS + 20) * PER_CONNECTION;
    const [withUs, withoutUs] = [median(perResult.on), median(perResult.off)];
    report({
      bench: 'rehearsal',
      row: 'daemon CPU per result on the socket-intake load (8 senders, 100 per connection), rehearsal on beside --no-rehearsal',
      cpu_us_per_result_on: Math.round(withUs),
      cpu_us_per_result_off: Math.round(withoutUs),
      runs_on: perResult.on.map(Math.round),
      runs_off: perResult.off.map(Math.round),
      ratio: +(withUs / withoutUs).toFixed(2),
      rehearsal_us_per_result: Math.round(withUs - withoutUs),
      results_sent: sent,
      results_rehearsed: rehearsal.seen,
      node_start_ms: nodeStartMs(),
    });
  } finally {
    // A profile is written only at a clean exit.
    await on.daemon.stop(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL');
    await off.daemon.stop(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL');
    for (const root of roots) removeTree(root);
  }
}
