// What a daemon's PostgreSQL store says of PostgreSQL's reach without asking it: nothing wrong while it listens, and
// degraded (the doors' and /health's answer) from the moment its listening connection is cut until it listens again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgresStateStore } from '../../../src/store/postgres/postgres-state-store.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('reach');

const until = async (ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 50));
  return ok();
};

test('postgres: a listening store is well while it listens, degraded while its listening connection is cut, and well again', async (t) => {
  if (!server) return void t.skip(missing!);
  const store = PostgresStateStore.open(`${await freshDsn()}?application_name=reach-test`);
  t.after(() => store.close());
  // Not listening (a command's store): the problem is asked of PostgreSQL itself, and nothing is degraded.
  assert.deepEqual([store.problem(), store.alarm()], ['', null]);
  await store.listenForChanges(capturedLogger().logger);
  assert.ok(await until(() => store.alarm() === null, 10_000), String(store.alarm()));
  assert.equal(store.problem(), '');
  await server.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'reach-test store changes'");
  assert.ok(await until(() => store.alarm() !== null, 10_000), 'degraded once cut');
  assert.match(String(store.alarm()), /^DEGRADED: not listening for other servers' changes/);
  assert.match(store.problem(), /unavailable/);
  assert.ok(await until(() => store.alarm() === null && store.problem() === '', 15_000), `well again: ${store.alarm()}`);
});
