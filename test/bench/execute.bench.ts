import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Limiter } from '../../src/execute/limiter.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import { RemoteSpawner } from '../../src/execute/remote-spawner.js';
import { runCheck } from '../../src/execute/check-run.js';
import { Scheduler } from '../../src/schedule/scheduler.js';
import { systemClock } from '../../src/schedule/clock.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function bareSpawnRate(count: number, concurrency: number): Promise<number> {
  const limiter = new Limiter(concurrency);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: count }, () =>
      limiter.run(() => new Promise<void>((resolve) => spawn('/bin/true', { stdio: 'ignore' }).on('close', () => resolve()))),
    ),
  );
  return count / ((performance.now() - start) / 1000);
}

export async function benchExecute(report: (figure: object) => void): Promise<void> {
  const count = Number(process.env.BENCH_EXECUTIONS ?? 1000);
  const limit = 12;
  const bare = await bareSpawnRate(count, limit);
  const limiter = new Limiter(limit);
  const client = { name: 'bench', address: '127.0.0.1', subscriptions: [] };
  const run = (command: string, options: Parameters<typeof spawnCommand>[1]) => limiter.run(() => spawnCommand(command, options));
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => runCheck({ name: `check_${i}`, command: '/bin/true', timeout: 10 }, { client, run, clock: systemClock })),
  );
  const seconds = (performance.now() - start) / 1000;
  if (results.some((r) => r.check.status !== 0)) throw new Error('an execution failed');
  const rate = count / seconds;
  report({
    bench: 'execute.true',
    executions: count,
    spawn_limit: limit,
    executions_per_s: Math.round(rate),
    bare_spawn_per_s: Math.round(bare),
    ratio_to_bare: +(rate / bare).toFixed(2),
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  });

  // The same executions forked by the helper process, after the daemon has grown (a 300 MB heap, held).
  const ballast = Array.from({ length: 300 }, () => Buffer.alloc(1 << 20, 1));
  const spawner = new RemoteSpawner();
  for (const [label, spawnOne] of [
    ['in_process', spawnCommand],
    ['helper_process', spawner.spawn],
  ] as const) {
    const runVia = (command: string, options: Parameters<typeof spawnCommand>[1]) => limiter.run(() => spawnOne(command, options));
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: count }, (_, i) => runCheck({ name: `check_${i}`, command: '/bin/true', timeout: 10 }, { client, run: runVia, clock: systemClock })),
    );
    report({
      bench: `execute.true_large_daemon.${label}`,
      executions: count,
      executions_per_s: Math.round(count / ((performance.now() - t0) / 1000)),
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    });
  }
  await spawner.close();
  ballast.length = 0;

  const checks = Number(process.env.BENCH_SCHEDULED_CHECKS ?? 1000);
  const windowMs = Number(process.env.BENCH_SCHEDULE_MS ?? 60_000);
  const lateness: number[] = [];
  const scheduler = new Scheduler(systemClock, (_name, at) => lateness.push(Date.now() - at));
  for (let i = 0; i < checks; i++) scheduler.set(`check_${i}`, { kind: 'interval', intervalMs: 10_000, key: `check_${i}` });
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  scheduler.stop();
  lateness.sort((a, b) => a - b);
  report({
    bench: 'schedule.lateness',
    checks,
    interval_s: 10,
    window_s: windowMs / 1000,
    fires: lateness.length,
    p50_ms: percentile(lateness, 50),
    p99_ms: percentile(lateness, 99),
    max_ms: lateness.at(-1),
  });
}
