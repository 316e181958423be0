// The blocking group commit's reads: every row its batch names, one statement per table, a key without a row kept as
// known to be absent; and its locks, taken for the transaction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { STORE_SCHEMA, migrateStore } from '../../../src/store/postgres/store-schema.js';
import { batchStatements, readBatchBlocking } from '../../../src/store/postgres/blocking-batch-reads.js';
import { pairKey, v2Key } from '../../../src/store/postgres/batch-rows.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('blocking');

async function store(t: { after(fn: () => void): void }): Promise<SyncPostgres> {
  const db = new SyncPostgres(await freshDsn(), {}, 'blocking-test', STORE_SCHEMA);
  t.after(() => db.close());
  migrateStore(db);
  db.exec(`INSERT INTO clients VALUES ('web', '{"name":"web"}');
    INSERT INTO results (client, check_name, data, history, last_ok) VALUES ('web', 'disk', '{"status":1}', '[1]', 5);
    INSERT INTO events VALUES ('web', 'disk', '{"action":"create"}');
    INSERT INTO v2_events VALUES ('default', 'web', 'disk', '{"v2":"event"}');
    INSERT INTO v2_entities VALUES ('default', 'web', '{"v2":"entity"}')`);
  return db;
}

test('every named row is read, and every named key without a row is known to be absent', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = await store(t);
  const s = batchStatements((sql) => db.prepare(sql));
  const batch = readBatchBlocking(
    s,
    [
      ['web', 'disk'],
      ['web', 'cpu'],
      ['db', 'disk'],
    ],
    {
      events: [
        ['default', 'web', 'disk'],
        ['default', 'web', 'cpu'],
      ],
      entities: [
        ['default', 'web'],
        ['other', 'web'],
      ],
    },
  );
  assert.deepEqual(
    [...batch.clients],
    [
      ['web', '{"name":"web"}'],
      ['db', null],
    ],
  );
  const result = batch.results.get(pairKey('web', 'disk'));
  assert.deepEqual([result?.data, result?.history, result?.last_ok], ['{"status":1}', '[1]', 5]);
  assert.equal(batch.results.get(pairKey('web', 'cpu')), null);
  assert.equal(batch.results.get(pairKey('db', 'disk')), null);
  assert.equal(batch.results.size, 3);
  assert.deepEqual([...batch.events.values()], ['{"action":"create"}', null, null]);
  assert.deepEqual(
    [...batch.v2Events],
    [
      [v2Key('default', 'web', 'disk'), '{"v2":"event"}'],
      [v2Key('default', 'web', 'cpu'), null],
    ],
  );
  assert.deepEqual(
    [...batch.v2Entities],
    [
      [v2Key('default', 'web'), '{"v2":"entity"}'],
      [v2Key('other', 'web'), null],
    ],
  );
  assert.equal(batch.pending.size, 0, 'nothing written yet');
});

test('nothing named: an empty batch', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = await store(t);
  const batch = readBatchBlocking(
    batchStatements((sql) => db.prepare(sql)),
    [],
    { events: [], entities: [] },
  );
  assert.deepEqual([batch.clients.size, batch.results.size, batch.events.size, batch.v2Events.size, batch.v2Entities.size], [0, 0, 0, 0, 0]);
});

test('the locks are taken once per distinct key and held until the transaction ends', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = await store(t);
  const watcher = new SyncPostgres(await freshDsn(), {}, 'watcher', 'public');
  t.after(() => watcher.close());
  const held = () => (watcher.prepare("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted").get() as { n: number }).n;
  const s = batchStatements((sql) => db.prepare(sql));
  db.transaction(() => {
    s.lockResults.all(['web/disk', 'web', 'web/disk', 'db']);
    assert.equal(held(), 3);
  })();
  assert.equal(held(), 0);
});
