// Polls PostgreSQL's open transactions of one database every few milliseconds, on a thread of its own: the test's
// thread may be busy (a unit's processing is synchronous) exactly when two are open.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';

const { url, database } = workerData as { url: string; database: string };
const client = new pg.Client({ connectionString: url });
await client.connect();
let [most, stopping] = [0, false];
parentPort!.once('message', () => (stopping = true));
while (!stopping) {
  const sql = 'SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid()';
  const { rows } = await client.query(sql, [database]);
  most = Math.max(most, Number(rows[0]?.open ?? 0));
  await new Promise((resolve) => setTimeout(resolve, 5));
}
await client.end();
parentPort!.postMessage(most);
