import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeTree, removeTree } from '../helpers/tree.js';
import { BIN } from '../helpers/paths.js';

/** `checkbridge compile` of 10,000 checks in 1,000 files, the whole process (start, load, validate, compile, write). */
export async function benchCompile(report: (figure: object) => void): Promise<void> {
  const tree: Record<string, object> = { 'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: ['linux'], disk: { warning: 70 } } } };
  for (let f = 0; f < 1000; f++) {
    const checks: Record<string, object> = {};
    for (let i = 0; i < 10; i++) {
      checks[`check_${f}_${i}`] = {
        command: `check_disk -w :::disk.warning|80::: -p /data${i}`,
        subscribers: ['linux', `team-${i % 7}`],
        interval: 60,
        handlers: ['default'],
        subdue: { days: { all: [{ begin: '10:00 PM', end: '6:00 AM' }] } },
        hooks: { critical: { command: 'ps aux' } },
        team: 'ops',
      };
    }
    tree[`team${f % 10}/checks-${f}.json`] = { checks };
  }
  const root = makeTree(tree);
  try {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const result = spawnSync(process.execPath, [BIN, 'compile', root, '--out', join(root, '..', `compile-out-${run}`)], {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      });
      if (result.status !== 0) throw new Error(result.stderr);
      times.push((performance.now() - started) / 1000);
    }
    const median = [...times].sort((a, b) => a - b)[1]!;
    report({
      bench: 'compile.10k_checks_1000_files',
      checks: 10_000,
      files: 1000,
      median_s: +median.toFixed(2),
      runs_s: times.map((t) => +t.toFixed(2)),
      resources: 20_003,
      output: 'yaml, one file per kind',
    });
  } finally {
    removeTree(root);
    for (let run = 0; run < 3; run++) removeTree(join(root, '..', `compile-out-${run}`));
  }
}
