// The reach probe's thread: `SELECT 1` on a connection of its own every PROBE_MS, each answer's time written to shared
// memory. It runs whatever the main thread is doing, so a statement blocking that thread can see the network is silent.
import { workerData } from 'node:worker_threads';
import pg from 'pg';
import { poolConfigOf, type PgEnvironment } from './connection.js';

const PROBE_MS = 100;
const { dsn, env, times } = workerData as { dsn: string; env: PgEnvironment; times: SharedArrayBuffer };
/** [0]: when the probe waiting now was sent (0: none waits), [1]: when one was last answered; ms since the epoch. */
const shared = new BigInt64Array(times);

let client: pg.Client | null = null;

async function probe(): Promise<void> {
  if (Atomics.load(shared, 0) === 0n) Atomics.store(shared, 0, BigInt(Date.now()));
  try {
    if (!client) {
      const { max: _max, ...config } = poolConfigOf(dsn, 1, env);
      const fresh = new pg.Client({ ...config, application_name: `${config.application_name ?? 'checkbridge'} reach probe`, keepAlive: true });
      fresh.on('error', () => undefined);
      client = fresh;
      await fresh.connect();
    }
    await client.query('SELECT 1');
    Atomics.store(shared, 1, BigInt(Date.now()));
    Atomics.store(shared, 0, 0n);
  } catch {
    // Silent or refused: the time since the first unanswered probe keeps growing; a new connection next time.
    const lost = client;
    client = null;
    void lost?.end().catch(() => undefined);
  }
}

// One probe at a time: a silent one is given up by the connection's own timeouts, or replaced once it waited 2 s.
for (;;) {
  const started = Date.now();
  await Promise.race([probe(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
  if (Date.now() - started >= 2_000) {
    const stuck = client as pg.Client | null;
    client = null;
    void stuck?.end().catch(() => undefined);
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, PROBE_MS - (Date.now() - started))));
}
