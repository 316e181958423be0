// A store connection's statements over its link, on a worker thread or the main thread: a statement not answered in
// time is given up rather than hung (the connection replaced), a lost connection refuses at once and comes back by
// itself, a closed one refuses, and one the main thread runs never blocks.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { UnitPostgres } from '../../../src/store/postgres/unit-connection.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('linked');

let database: Promise<string> | null = null;

async function connected(t: TestContext, timeoutMs?: number): Promise<SyncPostgres | null> {
  if (!server) return (t.skip(missing!), null);
  const db = new SyncPostgres(await (database ??= freshDsn()), {}, 'sync-test', 'public', timeoutMs);
  t.after(() => db.close());
  return db;
}

const unavailable = (pattern: RegExp) => (error: unknown) =>
  error instanceof CheckbridgeError && error.code === 'CB_STORE_UNAVAILABLE' && pattern.test(error.message);

test('a statement not answered in time fails naming the store, and the next one runs on a new connection', async (t) => {
  const db = await connected(t, 2000);
  if (!db) return;
  assert.throws(
    () => db.prepare('SELECT pg_sleep(5)').get(),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_UNAVAILABLE' && /sync-test: Query read timeout$/.test(error.message),
  );
  assert.deepEqual(db.prepare('SELECT 1 AS one').get(), { one: 1 });
});

test('a caller giving up while it blocks ends the statement with its reason; the connection is replaced', async (t) => {
  const db = await connected(t);
  if (!db) return;
  db.giveUp = (waited) => (waited > 100 ? 'the probe is silent' : null);
  assert.throws(() => db.prepare('SELECT pg_sleep(5)').get(), /sync-test: the probe is silent$/);
  db.giveUp = null;
  assert.deepEqual(db.prepare('SELECT 2 AS two').get(), { two: 2 });
});

test('a closed connection refuses statements', async (t) => {
  const db = await connected(t);
  if (!db) return;
  db.close();
  assert.equal(db.open, false);
  assert.throws(
    () => db.prepare('SELECT 1').get(),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_UNAVAILABLE' && /the store is closed/.test(error.message),
  );
});

test('on the main thread: awaited statements answer, one that would block is refused, and a late one is given up', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = new UnitPostgres(await (database ??= freshDsn()), {}, 'unit-test', 'public', 1000);
  t.after(() => db.close());
  assert.deepEqual((await db.requestAsync({ sql: 'SELECT 1 AS one' })).rows, [{ one: 1 }]);
  assert.throws(() => db.prepare('SELECT 1').get(), unavailable(/unit-test: a statement cannot wait here without blocking the thread$/));
  await assert.rejects(db.requestAsync({ sql: 'SELECT pg_sleep(5)' }), unavailable(/unit-test: Query read timeout$/));
  // Refused at once while it connects again, then answered on a new connection.
  let answered: unknown = null;
  for (let i = 0; i < 200 && answered === null; i++) {
    answered = await db.requestAsync({ sql: 'SELECT 2 AS two' }).then(
      (reply) => reply.rows,
      (error: unknown) => (assert.ok(unavailable(/connecting again in the background/)(error), String(error)), null),
    );
    if (answered === null) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(answered, [{ two: 2 }]);
});

test('on the main thread: a lost connection is refused as unavailable, never hung, and comes back by itself', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = new UnitPostgres(await (database ??= freshDsn()), {}, 'unit-test', 'public');
  t.after(() => db.close());
  const pidOf = async () => ((await db.requestAsync({ sql: 'SELECT pg_backend_pid() AS pid' })).rows[0] as { pid: number }).pid;
  const first = await pidOf();
  await server.query(`SELECT pg_terminate_backend(${Number(first)})`);
  let now = first;
  for (let i = 0; i < 200 && now === first; i++) {
    now = await pidOf().catch((error: unknown) => {
      assert.ok(unavailable(/unit-test: /)(error), String(error));
      return first;
    });
    if (now === first) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.notEqual(now, first, 'a new connection answers');
});
