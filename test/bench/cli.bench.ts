import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { BIN } from '../helpers/paths.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { median } from './load/latency.js';

const RUNS = 9;
const bin = () => process.env.CHECKBRIDGE_BENCH_BIN ?? BIN;

// Whole processes, interleaved with their baseline so both see the same load; wall time.
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')}: exit ${result.status} ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

function compare(command: string[], baseline: string[]): { s: number; baseline_s: number } {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push(timed(command));
    theirs.push(timed(baseline));
  }
  return { s: +median(ours).toFixed(3), baseline_s: +median(theirs).toFixed(3) };
}

/** `validate` of an empty conf.d against `node -e 0`: the fixed start-up of any CLI command. */
export async function benchStartup(report: (figure: object) => void): Promise<void> {
  const root = makeTree({});
  mkdirSync(join(root, 'conf.d'));
  try {
    const { s, baseline_s } = compare([bin(), 'validate', '-d', join(root, 'conf.d')], ['-e', '0']);
    report({
      bench: 'startup',
      row: "any CLI command's fixed start-up (validate of an empty conf.d)",
      median_s: s,
      runs: RUNS,
      baseline: 'node -e 0 (same run, interleaved)',
      baseline_s,
      ratio: +(s / baseline_s).toFixed(2),
      target_s: 0.12,
      load: loadavg()[0]!.toFixed(2),
    });
  } finally {
    removeTree(root);
  }
}

/** `validate` of 10,000 checks in 1,000 files, whole process, against the same files read and JSON.parsed by bare node. */
export async function benchValidate10k(report: (figure: object) => void): Promise<void> {
  const root = makeTree({});
  const dir = join(root, 'conf.d');
  for (let f = 0; f < 1000; f++) {
    const checks: Record<string, object> = {};
    for (let i = 0; i < 10; i++) {
      checks[`check_${f}_${i}`] = {
        command: `/usr/lib/nagios/plugins/check_disk -w :::disk.warning|80::: -p /data${i}`,
        subscribers: ['linux', `team-${i % 7}`],
        interval: 60,
        timeout: 30,
        handlers: ['default'],
        subdue: { days: { all: [{ begin: '10:00 PM', end: '6:00 AM' }] } },
        hooks: { critical: { command: 'ps aux' } },
      };
    }
    mkdirSync(join(dir, `team${f % 10}`), { recursive: true });
    writeFileSync(join(dir, `team${f % 10}`, `checks-${f}.json`), JSON.stringify({ checks }, null, 2));
  }
  const readAll = `const fs=require('fs'),p=require('path');const walk=d=>fs.readdirSync(d).forEach(n=>{const f=p.join(d,n);fs.statSync(f).isDirectory()?walk(f):JSON.parse(fs.readFileSync(f,'utf8'))});walk(${JSON.stringify(dir)})`;
  try {
    const { s, baseline_s } = compare([bin(), 'validate', '-d', dir], ['-e', readAll]);
    report({
      bench: 'validate-10k',
      row: 'checkbridge validate, 10,000 checks in 1,000 files, whole process',
      median_s: s,
      runs: RUNS,
      baseline: 'node reading and JSON.parse-ing the same files (same run, interleaved)',
      baseline_s,
      ratio: +(s / baseline_s).toFixed(2),
      legacy_loader_s: 1.2,
      legacy_measured: 'not in this run: figure from issue 21',
      target_s: 0.25,
      load: loadavg()[0]!.toFixed(2),
    });
  } finally {
    removeTree(root);
  }
}
