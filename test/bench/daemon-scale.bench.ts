import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { StateStore } from '../../src/store/index.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon } from './load/daemon.js';
import { median } from './load/latency.js';

const CHECKS = 10_000;
const HISTORY_ROWS = 1_000_000;
const PER_RESULT = 21;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

// 1,000,000 history entries: 47,620 stored results of 21 entries each, written straight into a fresh store.
function fillHistory(stateDir: string): number {
  const store = StateStore.open(join(stateDir, 'checkbridge.db'));
  const results = Math.ceil(HISTORY_ROWS / PER_RESULT);
  store.transaction(() => {
    for (let i = 0; i < results; i++) {
      const history = Array.from({ length: PER_RESULT }, (_, h) => ({ status: h % 2, executed: 1_700_000_000 + h * 60 }));
      store.putResult(`host-${i % 1000}`, { name: `check_${Math.floor(i / 1000)}`, output: 'x', status: 0 }, history, 1_700_000_000);
    }
  });
  store.close();
  return results * PER_RESULT;
}

async function spawnRate(count: number, width: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next++ < count) await new Promise<void>((resolve) => spawn('/bin/true', { stdio: 'ignore' }).on('close', () => resolve()));
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function withDaemon<T>(intervalS: number, measure: (root: string, pid: number) => Promise<T>): Promise<T & { history_rows: number }> {
  const root = makeTree({});
  const history = fillHistory(join(root, 'state'));
  const checks: Record<string, object> = {};
  for (let i = 0; i < CHECKS; i++) checks[`check_${i}`] = { command: '/bin/true', standalone: true, interval: intervalS, handlers: [] };
  const { daemon, pid } = await benchDaemon(root, {
    'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } },
    'checks.json': { checks },
    'checkbridge.json': { checkbridge: { entity_limit: 0 } },
  });
  try {
    return { ...(await measure(root, pid)), history_rows: history };
  } finally {
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}

/** Daemon RSS with 10,000 checks (every 60 s) and 1 M history rows; executions of /bin/true against bare spawn. */
export async function benchDaemonScale(report: (figure: object) => void): Promise<void> {
  const rss = await withDaemon(60, async (_root, pid) => {
    const samples: number[] = [];
    // 75 s: every check has run at least once (interval 60 s, splayed).
    for (let i = 0; i < 15; i++) {
      await sleep(5000);
      samples.push(rssMb(pid));
    }
    return { samples };
  });
  report({
    bench: 'rss',
    row: 'daemon RSS with 10,000 checks (interval 60 s, 166 executions/s) and 1 M history rows',
    rss_mb: Math.max(...rss.samples),
    rss_samples_mb: rss.samples,
    checks: CHECKS,
    history_rows: rss.history_rows,
    target_mb: 200,
  });
  // Every 10 s: 1,000 executions/s asked of the daemon, past what spawning allows here, so the rate is its ceiling.
  const execution = await withDaemon(10, async (root) => {
    await sleep(5000);
    const executed: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const count0 = countResults(root);
      await sleep(2000);
      executed.push((countResults(root) - count0) / ((performance.now() - t0) / 1000));
    }
    return { executed };
  });
  const bare = await spawnRate(2000, 12);
  const rate = median(execution.executed);
  report({
    bench: 'execute-ratio',
    row: 'check executions of /bin/true by the daemon, 1 M history rows stored',
    executions_per_s: Math.round(rate),
    samples: execution.executed.map(Math.round),
    baseline: 'bare child_process.spawn of /bin/true, 12 at a time, in the bench process (same run, after the daemon stopped)',
    baseline_per_s: Math.round(bare),
    ratio: +(rate / bare).toFixed(2),
    target_ratio: 0.8,
  });
}

// Executions stored so far: the history entries of the local client's results (21 kept per check; the window is shorter).
function countResults(root: string): number {
  const store = StateStore.open(join(root, 'state', 'checkbridge.db'));
  try {
    return Number((store.db.prepare("SELECT COALESCE(SUM(json_array_length(history)), 0) AS n FROM results WHERE client = 'bench'").get() as { n: number }).n);
  } finally {
    store.close();
  }
}
