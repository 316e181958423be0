// A store's connections by its use: a daemon's (listening) unit connections run on the main thread, where a statement
// cannot block; a command's run in worker threads, where it may; and the other lane refuses while PostgreSQL is away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storeLanes } from '../../../src/store/postgres/store-lanes.js';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { STORE_SCHEMA, migrateStore } from '../../../src/store/postgres/store-schema.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('lanes');

test('postgres: a listening store’s unit connections never block, a command’s may; away, the statements’ lane refuses', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const db = new SyncPostgres(dsn, {}, 'lanes-test', STORE_SCHEMA);
  t.after(() => db.close());
  migrateStore(db);
  const reach = { listening: false, away: null as string | null, outOfReach: () => reach.away };
  const command = storeLanes(db, { dsn, env: {} }, () => reach, 2);
  t.after(() => command.close());
  assert.deepEqual(command.unit(1).prepare('SELECT 1 AS one').get(), { one: 1 }, 'a command’s blocks for its answer');

  reach.listening = true;
  const daemon = storeLanes(new SyncPostgres(dsn, {}, 'lanes-test', STORE_SCHEMA), { dsn, env: {} }, () => reach, 2);
  t.after(() => daemon.close());
  assert.throws(() => daemon.unit(0).prepare('SELECT 1').get(), /cannot wait here without blocking the thread/);
  assert.deepEqual((await daemon.reader().requestAsync({ sql: 'SELECT 2 AS two' })).rows, [{ two: 2 }], 'awaited, it answers');
  assert.equal(daemon.unitLaneCount, 2);

  reach.away = 'the probe is silent';
  assert.throws(() => daemon.prepare('SELECT 1').get(), /the probe is silent/);
});
