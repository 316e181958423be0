// The shared store's tables on PostgreSQL: created in a schema of their own, migrated once, a newer schema refused
// untouched; resource writes bump the generation, and writes to cached tables notify the listening servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { STORE_SCHEMA, RESOURCE_GENERATION, migrateStore, storeSchemaVersion } from '../../../src/store/postgres/store-schema.js';
import { CHANGES_CHANNEL } from '../../../src/store/postgres/change-listener.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('store_schema');

function connect(t: { after(fn: () => void): void }, dsn: string): SyncPostgres {
  const db = new SyncPostgres(dsn, {}, 'test-store', STORE_SCHEMA);
  t.after(() => db.close());
  return db;
}

test('a fresh database gets every table in the store schema, once; the default namespace and the generation row are there', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = connect(t, await freshDsn());
  assert.equal(migrateStore(db), 0, 'the version found');
  const latest = storeSchemaVersion(db);
  assert.ok(latest >= 5);
  assert.equal(migrateStore(db), latest, 'nothing left to migrate');
  assert.equal(storeSchemaVersion(db), latest);
  const tables = (
    db.prepare('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? ORDER BY 1').all(STORE_SCHEMA) as { t: string }[]
  ).map((r) => r.t);
  for (const table of ['clients', 'results', 'events', 'v2_events', 'v2_entities', 'v2_resources', 'users', 'api_keys', 'counters', 'rehearsal_state'])
    assert.ok(tables.includes(table), table);
  assert.deepEqual(db.prepare("SELECT data FROM v2_resources WHERE kind = 'Namespace'").all(), [{ data: '{"name":"default"}' }]);
  assert.deepEqual(db.prepare('SELECT value FROM counters WHERE name = ?').get(RESOURCE_GENERATION), { value: 0 });
  // Keys sort bytewise, as SQLite sorts them.
  db.prepare("INSERT INTO clients VALUES ('b', '{}'), ('B', '{}'), ('a', '{}')").run();
  assert.deepEqual(db.prepare('SELECT name FROM clients ORDER BY name').all(), [{ name: 'B' }, { name: 'a' }, { name: 'b' }]);
});

test('each statement writing v2_resources bumps the resource generation; writes to cached tables notify after COMMIT', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const db = connect(t, dsn);
  migrateStore(db);
  db.prepare("INSERT INTO v2_resources VALUES ('CheckConfig', 'default', 'a', '{}'), ('CheckConfig', 'default', 'b', '{}')").run();
  db.prepare("DELETE FROM v2_resources WHERE name = 'a'").run();
  assert.deepEqual(db.prepare('SELECT value FROM counters WHERE name = ?').get(RESOURCE_GENERATION), { value: 2 });

  const listener = new pg.Client({ connectionString: dsn });
  await listener.connect();
  t.after(() => listener.end());
  const heard: string[] = [];
  listener.on('notification', (note) => heard.push(`${note.channel}:${note.payload}`));
  await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
  db.transaction(() => {
    db.prepare("INSERT INTO users VALUES ('u1', '{}')").run();
    db.prepare("INSERT INTO users VALUES ('u2', '{}')").run();
    db.prepare("INSERT INTO clients VALUES ('c', '{}')").run();
  })();
  db.prepare("INSERT INTO api_keys VALUES ('h', 'u1', 'u1', 1, 'x')").run();
  // A round trip on the listening connection: what was committed before it has been delivered.
  await listener.query('SELECT 1');
  assert.deepEqual(heard, [`${CHANGES_CHANNEL}:users`, `${CHANGES_CHANNEL}:api_keys`], 'one per table and transaction; clients are not cached');
});

test('a schema newer than this binary is refused with its version, and left as it is', async (t) => {
  if (!server) return void t.skip(missing!);
  const db = connect(t, await freshDsn());
  migrateStore(db);
  const latest = storeSchemaVersion(db);
  db.prepare('UPDATE store_schema SET version = version + 1').run();
  assert.throws(
    () => migrateStore(db),
    (error: unknown) =>
      error instanceof CheckbridgeError &&
      error.code === 'CB_STORE_NEWER' &&
      error.message.includes(`has schema version ${latest + 1}, this binary knows ${latest}`) &&
      error.message.includes(`test-store (schema ${STORE_SCHEMA})`),
  );
  assert.equal(storeSchemaVersion(db), latest + 1);
});
