// The configuration a shared store's server reads per request, held in memory only while it listens and has heard
// every change until a moment ago: another server's write shows once its notification drops what is held; not
// listening (or not trusted), every read goes to PostgreSQL.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { SharedResourceTables } from '../../../src/store/postgres/shared-resources.js';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { STORE_SCHEMA, migrateStore } from '../../../src/store/postgres/store-schema.js';
import { postgresForFile } from '../../servers/postgres.js';
import type { Json } from '../../../src/json.js';

const { server, missing, freshDsn } = await postgresForFile('shared');

let database: Promise<string> | null = null;

/** This server's tables, and another server's connection writing behind their back; the file's one database emptied. */
async function twoServers(t: TestContext): Promise<{ tables: SharedResourceTables; other: SyncPostgres } | null> {
  if (!server) return (t.skip(missing!), null);
  const dsn = await (database ??= freshDsn());
  const [db, other] = [new SyncPostgres(dsn, {}, 'this', STORE_SCHEMA), new SyncPostgres(dsn, {}, 'other', STORE_SCHEMA)];
  t.after(() => (db.close(), other.close()));
  migrateStore(db);
  other.exec('TRUNCATE v2_resources, users, api_keys');
  return { tables: new SharedResourceTables(db), other };
}

const listen = (tables: SharedResourceTables) => (tables.setListening(true), tables.heardUntil(performance.now()));
const putBehind = (other: SyncPostgres, name: string, data: Json) =>
  other
    .prepare("INSERT INTO v2_resources VALUES ('CheckConfig', 'default', ?, ?) ON CONFLICT (kind, namespace, name) DO UPDATE SET data = excluded.data")
    .run(name, JSON.stringify(data));

test('not listening: every read is PostgreSQL’s, and every read is a new access generation', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { tables, other } = servers;
  putBehind(other, 'disk', { v: 1 });
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 1 });
  putBehind(other, 'disk', { v: 2 });
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 2 });
  assert.notEqual(tables.accessGeneration, tables.accessGeneration);
  assert.equal(tables.untrusted, null, 'nothing held, nothing to distrust');
});

test('listening: reads are held until a notification for their table drops them', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { tables, other } = servers;
  putBehind(other, 'disk', { v: 1 });
  other.prepare("INSERT INTO users VALUES ('alice', '{\"v\":1}')").run();
  other.prepare("INSERT INTO api_keys VALUES ('hash', 'alice', 'admin', 1, 'h')").run();
  listen(tables);
  const generation = tables.accessGeneration;
  assert.equal(tables.accessGeneration, generation, 'stable while nothing changes');
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 1 });
  assert.deepEqual(tables.listResources('CheckConfig', 'default'), [{ v: 1 }]);
  assert.deepEqual(tables.namespacesWith('CheckConfig'), ['default']);
  assert.deepEqual(tables.getUser('alice'), { v: 1 });
  assert.equal(tables.getApiKey('hash')?.username, 'alice');
  const resourceGeneration = tables.resourceGeneration;

  putBehind(other, 'disk', { v: 2 });
  putBehind(other, 'load', { v: 1 });
  other.prepare('UPDATE users SET data = \'{"v":2}\'').run();
  other.prepare('DELETE FROM api_keys').run();
  // Held only while heard lately (5 s): a stall of the loaded machine must not turn these reads into PostgreSQL's.
  tables.heardUntil(performance.now());
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 1 }, 'held: no notification yet');
  assert.equal(tables.listResources('CheckConfig', 'default').length, 1);
  assert.equal(tables.resourceGeneration, resourceGeneration);

  tables.changed('auth_sessions');
  assert.deepEqual(tables.getUser('alice'), { v: 1 }, 'sessions are not held: nothing dropped');
  tables.changed('v2_resources');
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 2 });
  assert.deepEqual(tables.listResources('CheckConfig', 'default'), [{ v: 2 }, { v: 1 }]);
  const stored = (other.prepare("SELECT value FROM counters WHERE name = 'resource_generation'").get() as { value: number }).value;
  assert.ok(stored > resourceGeneration);
  assert.equal(tables.resourceGeneration, stored, 'read again once dropped');
  tables.heardUntil(performance.now());
  assert.deepEqual(tables.getUser('alice'), { v: 1 }, 'users still held');
  assert.notEqual(tables.getApiKey('hash'), null, 'keys still held');
  tables.changed('users');
  assert.deepEqual(tables.getUser('alice'), { v: 2 });
  tables.changed('api_keys');
  assert.equal(tables.getApiKey('hash'), null);
  assert.notEqual(tables.accessGeneration, generation, 'each change is a new access generation');
});

test('a notification naming no known table drops everything held; so does a rollback', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { tables, other } = servers;
  other.prepare("INSERT INTO users VALUES ('bob', '{\"v\":1}')").run();
  listen(tables);
  assert.deepEqual(tables.getUser('bob'), { v: 1 });
  other.prepare('UPDATE users SET data = \'{"v":2}\'').run();
  tables.changed('something new');
  assert.deepEqual(tables.getUser('bob'), { v: 2 });
  other.prepare('UPDATE users SET data = \'{"v":3}\'').run();
  tables.forgetEventStates();
  assert.deepEqual(tables.getUser('bob'), { v: 3 });
});

test('each read is its own copy, and this server’s own writes show at once', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { tables } = servers;
  listen(tables);
  tables.putResource('CheckConfig', 'default', 'disk', { v: 1, list: [1] });
  // Read as a general record: the row holds no CheckConfig fields.
  const read = tables.getResource<string>('CheckConfig', 'default', 'disk')!;
  (read.list as number[]).push(2);
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 1, list: [1] });
  tables.putResource('CheckConfig', 'default', 'disk', { v: 2 });
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 2 });
  assert.equal(tables.deleteResource('CheckConfig', 'default', 'disk'), true);
  assert.equal(tables.getResource('CheckConfig', 'default', 'disk'), null);
  tables.putUser('carol', { username: 'carol', groups: ['one'] });
  assert.deepEqual(tables.getUser('carol'), { username: 'carol', groups: ['one'] });
  tables.putUser('carol', { username: 'carol', groups: ['two'] });
  assert.deepEqual(tables.getUser('carol'), { username: 'carol', groups: ['two'] });
  tables.putApiKey({ keyHash: 'k', username: 'carol', createdBy: 'carol', createdAt: 1, hint: 'h' });
  assert.equal(tables.getApiKey('k')?.username, 'carol');
  assert.equal(tables.deleteApiKey('k'), true);
  assert.equal(tables.getApiKey('k'), null);
});

test('listening without having heard lately: nothing held is trusted, reads go to PostgreSQL, and it says since when', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { tables, other } = servers;
  putBehind(other, 'disk', { v: 1 });
  tables.setListening(true);
  assert.equal(tables.untrusted, 'no change heard yet since listening began');
  // Heard until long ago: not trusted.
  tables.heardUntil(performance.now() - 60_000);
  assert.match(String(tables.untrusted), /^every change heard only until 6\d{4} ms ago$/);
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 1 });
  putBehind(other, 'disk', { v: 2 });
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 2 }, 'not held');
  tables.heardUntil(performance.now());
  assert.equal(tables.untrusted, null);
  // Listening stops: what was held is dropped, and reads go to PostgreSQL again.
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 2 });
  putBehind(other, 'disk', { v: 3 });
  tables.setListening(false);
  assert.deepEqual(tables.getResource('CheckConfig', 'default', 'disk'), { v: 3 });
});

test('it counts the changes it heard and the configuration it wrote: what an answer read beside a unit holds good against', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { tables } = servers;
  listen(tables);
  const [heard, wrote] = [tables.heard, tables.configWrites];
  tables.changed('v2_resources');
  tables.changed('users');
  assert.deepEqual([tables.heard - heard, tables.configWrites - wrote], [2, 0]);
  tables.putResource('CheckConfig', 'default', 'disk', { v: 1 });
  tables.deleteResource('CheckConfig', 'default', 'disk');
  tables.putUser('bob', { username: 'bob', disabled: false } as never);
  assert.deepEqual([tables.heard - heard, tables.configWrites - wrote], [2, 3]);
  // Listening again starts from empty caches: no answer read before holds either.
  tables.setListening(true);
  assert.equal(tables.heard - heard, 3);
});
