// The v2 event and entity rows in a PostgreSQL group commit: the batch's rows answer its reads; in its first run writes
// wait in the batch (an unchanged entity not even that), otherwise they go to the database and are kept in the batch.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { BatchedResourceTables } from '../../../src/store/postgres/batched-resources.js';
import { BatchRows, v2Key } from '../../../src/store/postgres/batch-rows.js';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { STORE_SCHEMA, migrateStore } from '../../../src/store/postgres/store-schema.js';
import { postgresForFile } from '../../servers/postgres.js';
import type { Entity, Event } from '../../../src/v2/index.js';

// The tables keep any JSON under a key: these rows are opaque payloads, not events or entities.
const opaqueEvent = (fields: Record<string, unknown>) => fields as Event;
const opaqueEntity = (fields: Record<string, unknown>) => fields as Entity;

const { server, missing, freshDsn } = await postgresForFile('batchedres');

interface Setup {
  tables: BatchedResourceTables;
  db: SyncPostgres;
  /** The batch the tables see (null: none), and whether its writes wait for COMMIT. */
  state: { batch: BatchRows | null; buffering: boolean; locked: string[] };
}

async function setUp(t: TestContext): Promise<Setup | null> {
  if (!server) return (t.skip(missing!), null);
  const db = new SyncPostgres(await freshDsn(), {}, 'batched', STORE_SCHEMA);
  t.after(() => db.close());
  migrateStore(db);
  db.exec(`INSERT INTO v2_events VALUES ('default', 'web', 'disk', '{"v":1}');
    INSERT INTO v2_entities VALUES ('default', 'web', '{"v":1}')`);
  const state: Setup['state'] = { batch: null, buffering: false, locked: [] };
  const locked = <T>(key: string, write: () => T) => (state.locked.push(key), write());
  const tables = new BatchedResourceTables(db, { rows: () => state.batch, buffering: () => state.buffering, locked });
  return { tables, db, state };
}

const stored = (db: SyncPostgres) => ({
  events: db.prepare('SELECT entity, check_name, data FROM v2_events ORDER BY 1, 2').all(),
  entities: db.prepare('SELECT name, data FROM v2_entities ORDER BY 1').all(),
});

test('without a batch, reads and writes are the database’s, each write holding its row’s lock', async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { tables, db, state } = s;
  assert.deepEqual(tables.getEvent('default', 'web', 'disk'), { v: 1 });
  tables.putEvent('default', 'web', 'cpu', opaqueEvent({ v: 2 }));
  assert.equal(tables.deleteEvent('default', 'web', 'disk'), true);
  tables.putEntity('default', 'db', opaqueEntity({ v: 3 }));
  assert.equal(tables.deleteEntity('default', 'web'), true);
  assert.deepEqual(stored(db), { events: [{ entity: 'web', check_name: 'cpu', data: '{"v":2}' }], entities: [{ name: 'db', data: '{"v":3}' }] });
  assert.deepEqual(state.locked, [v2Key('default', 'web', 'cpu'), v2Key('default', 'web', 'disk'), v2Key('default', 'db'), v2Key('default', 'web')]);
});

test('with a batch, its rows answer reads (absent ones too), and each write goes to the database and the batch', async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { tables, db, state } = s;
  const batch = (state.batch = new BatchRows());
  batch.v2Events.set(v2Key('default', 'web', 'disk'), '{"v":"kept"}');
  batch.v2Events.set(v2Key('default', 'web', 'cpu'), null);
  batch.v2Entities.set(v2Key('default', 'web'), '{"v":"kept"}');
  assert.deepEqual(tables.getEvent('default', 'web', 'disk'), { v: 'kept' });
  assert.deepEqual(tables.getEntity('default', 'web'), { v: 'kept' });
  db.prepare("INSERT INTO v2_events VALUES ('default', 'web', 'cpu', '{}')").run();
  assert.equal(tables.getEvent('default', 'web', 'cpu'), null, 'known absent');
  assert.deepEqual(tables.getEntity('default', 'other'), null, 'not in the batch: read from the database');

  tables.putEvent('default', 'web', 'disk', opaqueEvent({ v: 5 }));
  assert.equal(batch.v2Events.get(v2Key('default', 'web', 'disk')), '{"v":5}');
  assert.equal(tables.deleteEntity('default', 'web'), true);
  assert.equal(batch.v2Entities.get(v2Key('default', 'web')), null);
  assert.equal(batch.pending.size, 0, 'nothing waits');
  assert.deepEqual(stored(db), {
    events: [
      { entity: 'web', check_name: 'cpu', data: '{}' },
      { entity: 'web', check_name: 'disk', data: '{"v":5}' },
    ],
    entities: [],
  });
});

test('buffering, writes wait in the batch and answer its reads; an unchanged entity is not written at all', async (t) => {
  const s = await setUp(t);
  if (!s) return;
  const { tables, db, state } = s;
  const batch = (state.batch = new BatchRows());
  state.buffering = true;
  batch.v2Events.set(v2Key('default', 'web', 'disk'), '{"v":1}');
  batch.v2Events.set(v2Key('default', 'web', 'gone'), null);
  batch.v2Entities.set(v2Key('default', 'web'), '{"v":1}');
  const before = stored(db);

  tables.putEntity('default', 'web', opaqueEntity({ v: 1 }));
  assert.equal(batch.pending.size, 0, 'unchanged: no write');
  tables.putEvent('default', 'web', 'cpu', opaqueEvent({ v: 7 }));
  tables.putEntity('default', 'db', opaqueEntity({ v: 8 }));
  assert.equal(tables.deleteEvent('default', 'web', 'disk'), true);
  assert.equal(tables.deleteEvent('default', 'web', 'gone'), false, 'known absent: nothing removed');
  assert.deepEqual(tables.getEvent('default', 'web', 'cpu'), { v: 7 });
  assert.equal(tables.getEvent('default', 'web', 'disk'), null);
  assert.deepEqual(tables.getEntity('default', 'db'), { v: 8 });
  assert.deepEqual(
    [...batch.pending.v2Events.values()],
    [
      ['default', 'web', 'cpu'],
      ['default', 'web', 'disk'],
      ['default', 'web', 'gone'],
    ],
  );
  assert.deepEqual([...batch.pending.v2Entities.values()], [['default', 'db']]);
  assert.deepEqual(stored(db), before, 'nothing sent');

  // A delete of a key the batch does not hold goes to the database at once.
  assert.equal(tables.deleteEntity('default', 'nobody'), false);
  db.prepare("INSERT INTO v2_entities VALUES ('default', 'extra', '{}')").run();
  assert.equal(tables.deleteEntity('default', 'extra'), true);
  assert.equal(batch.v2Entities.get(v2Key('default', 'extra')), null);
});
