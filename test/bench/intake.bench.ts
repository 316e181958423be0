import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StateStore } from '../../src/store/index.js';
import { Intake } from '../../src/intake/intake.js';
import { legacyToV2Writer } from '../../src/intake/legacy-to-v2.js';
import { listenClientSocket } from '../../src/client/socket.js';
import { systemClock } from '../../src/schedule/clock.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { drive } from './socket-drive.js';

const p = (sorted: number[], q: number) => +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);

export async function benchIntake(report: (figure: object) => void): Promise<void> {
  const dir = makeTree({});
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, 'bench.db'));
  // 1,000 clients below: past the unlicensed entity limit, so the bench lifts it.
  const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(store, () => settings, systemClock, logger);
  const listeners = await listenClientSocket({ bind: '127.0.0.1', port: 0, intake, logger, client: () => ({ name: 'bench' }), clock: systemClock });
  const port = listeners.tcp.port;
  try {
    // Raw SQLite rate on the same machine, same run: batched inserts of 1,000 rows, WAL, synchronous=NORMAL.
    store.sqlite!.exec('CREATE TABLE raw_bench (k TEXT, v TEXT)');
    const insert = store.db.prepare('INSERT INTO raw_bench VALUES (?, ?)');
    const rows = 200_000;
    const rawStart = performance.now();
    for (let b = 0; b < rows; b += 1000)
      store.transaction(() => {
        for (let i = b; i < b + 1000; i++) insert.run(`k${i}`, '{"status":0,"output":"ok"}');
      });
    const rawRate = rows / ((performance.now() - rawStart) / 1000);

    const result = (i: number, check: number) => ({ name: `check_${check}`, output: `output ${i}`, status: i % 3 });
    const arrays = Array.from({ length: 200 }, (_, c) => JSON.stringify(Array.from({ length: 100 }, (_, i) => result(c * 100 + i, i))));
    let start = performance.now();
    const arrayLatency = (await drive(port, arrays, 8)).latencies;
    const arrayRate = (arrays.length * 100) / ((performance.now() - start) / 1000);
    report({
      bench: 'intake.tcp_arrays_of_100',
      results: arrays.length * 100,
      results_per_s: Math.round(arrayRate),
      ack_p50_ms: p(arrayLatency, 0.5),
      ack_p99_ms: p(arrayLatency, 0.99),
      raw_sqlite_rows_per_s: Math.round(rawRate),
      ratio_to_raw: +(arrayRate / rawRate).toFixed(3),
    });

    // The same arrays with what `run` adds in each transaction: the core/v2 event and entity, and a bridge outbox row.
    const v2Intake = new Intake(store, () => settings, systemClock, logger);
    v2Intake.withinTransaction(legacyToV2Writer(store, () => 'default', 'default'));
    const v2Listeners = await listenClientSocket({
      bind: '127.0.0.1',
      port: 0,
      intake: v2Intake,
      logger,
      client: () => ({ name: 'bench' }),
      clock: systemClock,
    });
    start = performance.now();
    const v2Latency = (await drive(v2Listeners.tcp.port, arrays, 8)).latencies;
    await v2Listeners.close();
    const v2Rate = (arrays.length * 100) / ((performance.now() - start) / 1000);
    report({
      bench: 'intake.tcp_arrays_of_100.with_v2_and_outbox',
      results: arrays.length * 100,
      results_per_s: Math.round(v2Rate),
      ack_p50_ms: p(v2Latency, 0.5),
      ack_p99_ms: p(v2Latency, 0.99),
      ratio_to_legacy_only: +(v2Rate / arrayRate).toFixed(2),
    });

    const singles = Array.from({ length: 5000 }, (_, i) => JSON.stringify(result(i, i % 500)));
    start = performance.now();
    const singleLatency = (await drive(port, singles, 16)).latencies;
    const singleRate = singles.length / ((performance.now() - start) / 1000);
    report({
      bench: 'intake.tcp_one_per_connection',
      results: singles.length,
      results_per_s: Math.round(singleRate),
      ack_p50_ms: p(singleLatency, 0.5),
      ack_p99_ms: p(singleLatency, 0.99),
    });

    // Fill to 1,000,000 history entries: 50,000 client/check pairs × 20 more results each (21 kept per pair).
    const pairs = 50_000;
    const fillStart = performance.now();
    for (let round = 0; round < 20; round++) {
      const batch = Array.from({ length: pairs }, (_, i) =>
        intake.submit({ client: `c${i % 1000}`, check: { name: `k${Math.floor(i / 1000)}`, output: 'x', status: round % 2, executed: round } }),
      );
      await Promise.all(batch);
    }
    const total = store.db.prepare('SELECT SUM(json_array_length(history)) AS n FROM results').get() as { n: number };
    report({
      bench: 'store.history_rows',
      history_entries: total.n,
      pairs,
      fill_s: +((performance.now() - fillStart) / 1000).toFixed(1),
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
      db_mb: Math.round(((store.sqlite!.prepare('PRAGMA page_count').pluck().get() as number) * 4096) / 1048576),
    });
  } finally {
    await listeners.close();
    store.close();
    removeTree(dir);
  }
}
