import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, startBaseline } from './load/daemon.js';
import { runLoad } from './load/child.js';
import { median } from './load/latency.js';

// The legacy Ruby server fed the same one-result connections on this machine; it is not installed here.
const LEGACY_SERVER_PER_S = 1900;

/**
 * Raw indexed SQLite: batched inserts of 1,000 rows into a table with an index, with the store's settings (8 KB pages,
 * WAL, synchronous=NORMAL); each row holds one result as the senders send it. Checkpoints stay automatic: the work the
 * daemon's checkpoint thread does on the same cores is charged here on the inserting thread.
 */
function rawIndexedInsertRate(path: string): number {
  const db = new Database(path);
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE raw (id INTEGER PRIMARY KEY, k TEXT NOT NULL, v TEXT NOT NULL); CREATE INDEX raw_k ON raw (k)');
  const insert = db.prepare('INSERT INTO raw (k, v) VALUES (?, ?)');
  const rows = 200_000;
  const started = performance.now();
  for (let b = 0; b < rows; b += 1000)
    db.transaction(() => {
      for (let i = b; i < b + 1000; i++) {
        const result = { name: `check_${i % 100}`, output: `output ${i}`, status: i % 3, source: `host-${Math.floor(i / 100) % 100}` };
        insert.run(`host-${i % 997}/check_${i % 101}/${i}`, JSON.stringify(result));
      }
    })();
  const rate = rows / ((performance.now() - started) / 1000);
  db.close();
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  return rate;
}

const RUNS = 3;

/** Results committed through the client socket of a whole `checkbridge run`, load generated in a second process. */
export async function benchSocket(report: (figure: object) => void, only?: string): Promise<void> {
  const root = makeTree({});
  const { daemon, socket } = await benchDaemon(root, {
    'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } },
    'checkbridge.json': { checkbridge: { entity_limit: 0 } },
  });
  try {
    await runLoad('socket-senders', [socket, 100, 40, 8]); // warm-up: clients and results exist, JIT warm
    if (!only || only === 'socket-intake') {
      const runs = [];
      // Interleaved with the daemon's runs, a fresh file each: the baseline sees the same machine load.
      const rawRuns = [];
      for (let r = 0; r < RUNS; r++) {
        rawRuns.push(rawIndexedInsertRate(join(root, `raw-${r}.db`)));
        runs.push(await runLoad('socket-senders', [socket, 100, 200, 8]));
      }
      const mid = runs.sort((a, b) => a.results_per_s! - b.results_per_s!)[Math.floor(RUNS / 2)]!;
      const rawRate = median(rawRuns);
      report({
        bench: 'socket-intake',
        row: 'results through the TCP client socket, 8 senders, 100 per connection',
        results_per_s: mid.results_per_s,
        runs: runs.map((r) => r.results_per_s),
        ack_p50_ms: mid.ack_p50_ms,
        ack_p99_ms: mid.ack_p99_ms,
        baseline: 'raw indexed SQLite batch insert with the store page size and pragmas, rows of the senders result bodies (rows/s, same run, interleaved)',
        baseline_per_s: Math.round(rawRate),
        baseline_runs: rawRuns.map((rate) => Math.round(rate)),
        ratio: +(mid.results_per_s! / rawRate).toFixed(3),
        target_per_s: 20_000,
      });
    }
    if (!only || only === 'socket-one-per-connection') {
      const bare = await startBaseline('bare-ok-server');
      const bareRuns = [];
      const runs = [];
      try {
        for (let r = 0; r < RUNS; r++) {
          bareRuns.push((await runLoad('socket-senders', [bare.port, 1, 5000, 8])).results_per_s!);
          runs.push(await runLoad('socket-senders', [socket, 1, 5000, 8]));
        }
      } finally {
        await bare.stop();
      }
      const mid = runs.sort((a, b) => a.results_per_s! - b.results_per_s!)[Math.floor(RUNS / 2)]!;
      const bareRate = median(bareRuns);
      report({
        bench: 'socket-one-per-connection',
        row: 'results through the client socket, one connection per result, 8 senders',
        results_per_s: mid.results_per_s,
        runs: runs.map((r) => r.results_per_s),
        ack_p50_ms: mid.ack_p50_ms,
        ack_p99_ms: mid.ack_p99_ms,
        baseline: 'bare node:net server answering ok (same run)',
        baseline_per_s: Math.round(bareRate),
        ratio: +(mid.results_per_s! / bareRate).toFixed(3),
        legacy_server_per_s: LEGACY_SERVER_PER_S,
        legacy_measured: 'not in this run: the legacy Ruby server is not installed; figure from issue 21 on this machine',
        ratio_to_legacy: +(mid.results_per_s! / LEGACY_SERVER_PER_S).toFixed(2),
        target: '>= 5x legacy (9,500/s)',
      });
    }
  } finally {
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}
