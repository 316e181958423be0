// The v2 tables' own logic: the generations caches key on, the namespaces held between access writes, the event
// states held for the next update, API keys by ID, and entity writes that change nothing.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { ResourceTables } from '../../../src/store/tables/v2-resources.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { RESOURCE_GENERATION } from '../../../src/store/postgres/store-schema.js';

function tables(t: TestContext, shared = false): { db: Database.Database; v2: ResourceTables } {
  const db = new Database(':memory:');
  t.after(() => db.close());
  for (const step of MIGRATIONS) db.exec(step);
  return { db, v2: new ResourceTables(db, { shared }) };
}

const key = { keyHash: 'hash-1', username: 'admin', createdBy: 'admin', createdAt: 1, hint: 'id-1' };

test('the access generation holds across reads and changes with every write of who a caller is or what they may do', (t) => {
  const { v2 } = tables(t);
  const changes = (write: () => unknown): boolean => {
    const before = v2.accessGeneration;
    write();
    return v2.accessGeneration !== before;
  };
  assert.equal(
    changes(() => [v2.getUser('admin'), v2.getResource('Role', 'default', 'r'), v2.listApiKeys()]),
    false,
  );
  assert.equal(
    changes(() => v2.putEvent('default', 'e', 'c', { sequence: 1 })),
    false,
  );
  for (const write of [
    () => v2.putUser('admin', { username: 'admin' }),
    () => v2.putApiKey(key),
    () => v2.deleteApiKey('hash-1'),
    () => v2.putSession('s', 'admin', 'r', 10, 1),
    () => v2.deleteSession('s'),
    () => v2.deleteUserSessions('admin'),
    () => v2.putResource('Role', 'default', 'r', {}),
    () => v2.deleteResource('Role', 'default', 'r'),
    () => v2.forgetEventStates(),
  ])
    assert.equal(changes(write), true, String(write));
});

test('shared with other servers, every read of the access generation is a new one', (t) => {
  const { v2 } = tables(t, true);
  assert.notEqual(v2.accessGeneration, v2.accessGeneration);
});

test('the resource generation changes with resource writes only', (t) => {
  const { v2 } = tables(t);
  const first = v2.resourceGeneration;
  v2.putUser('admin', { username: 'admin' });
  assert.equal(v2.resourceGeneration, first);
  v2.putResource('CheckConfig', 'default', 'cpu', {});
  const second = v2.resourceGeneration;
  assert.notEqual(second, first);
  v2.deleteResource('CheckConfig', 'default', 'cpu');
  assert.notEqual(v2.resourceGeneration, second);
});

test("shared, the resource generation is the counter row every server's writes bump; this server's own write reads it again", (t) => {
  const { db, v2 } = tables(t, true);
  assert.ok(Number.isNaN(v2.resourceGeneration), 'no counter row: no generation');
  db.prepare('INSERT INTO counters VALUES (?, ?)').run(RESOURCE_GENERATION, 5);
  v2.putResource('CheckConfig', 'default', 'cpu', {});
  assert.equal(v2.resourceGeneration, 5);
  db.prepare('UPDATE counters SET value = 6 WHERE name = ?').run(RESOURCE_GENERATION);
  v2.deleteResource('CheckConfig', 'default', 'cpu');
  assert.equal(v2.resourceGeneration, 6);
});

test('whether a namespace exists is held until the next access write; shared, it is read every time', (t) => {
  const { db, v2 } = tables(t);
  const shared = new ResourceTables(db, { shared: true });
  assert.equal(v2.namespaceExists('default'), true);
  assert.equal(v2.namespaceExists('ops'), false);
  assert.equal(shared.namespaceExists('ops'), false);
  // Written behind the tables' back (as another server would): this one still holds its answer, the shared one reads.
  db.prepare('INSERT INTO v2_resources VALUES (?, ?, ?, ?)').run('Namespace', '', 'ops', '{"name":"ops"}');
  assert.equal(v2.namespaceExists('ops'), false);
  assert.equal(shared.namespaceExists('ops'), true);
  v2.putUser('someone', { username: 'someone' });
  assert.equal(v2.namespaceExists('ops'), true);
});

test("an event's state is held from its first read or a remembered write until another write or a rollback forgets it", (t) => {
  const { db, v2 } = tables(t);
  const check = (occurrences: number) => ({ check: { history: [{ status: 2, executed: 1 }], occurrences } });
  const behindTheBack = (occurrences: number) => db.prepare('UPDATE v2_events SET data = ? WHERE entity = ?').run(JSON.stringify(check(occurrences)), 'e');
  assert.equal(v2.getEventState('default', 'e', 'c'), null);
  v2.putEvent('default', 'e', 'c', check(1), true);
  behindTheBack(2);
  assert.equal(v2.getEventState('default', 'e', 'c')?.check?.occurrences, 1, 'the remembered write');
  v2.forgetEventStates();
  assert.equal(v2.getEventState('default', 'e', 'c')?.check?.occurrences, 2, 'read again after a rollback');
  behindTheBack(3);
  assert.equal(v2.getEventState('default', 'e', 'c')?.check?.occurrences, 2, 'held from that read');
  v2.putEvent('default', 'e', 'c', check(4));
  behindTheBack(5);
  assert.equal(v2.getEventState('default', 'e', 'c')?.check?.occurrences, 5, 'a write not remembered forgets');
  v2.deleteEvent('default', 'e', 'c');
  assert.equal(v2.getEventState('default', 'e', 'c'), null);
  // Shared with other servers, nothing is held.
  const shared = new ResourceTables(db, { shared: true });
  shared.putEvent('default', 'e', 'c', check(6), true);
  behindTheBack(7);
  assert.equal(shared.getEventState('default', 'e', 'c')?.check?.occurrences, 7);
});

test('an API key is found by its ID; an empty ID finds none', (t) => {
  const { v2 } = tables(t);
  v2.putApiKey(key);
  v2.putApiKey({ ...key, keyHash: 'hash-2', hint: '' });
  assert.deepEqual(v2.getApiKeyById('id-1'), key);
  assert.equal(v2.getApiKeyById('id-2'), null);
  assert.equal(v2.getApiKeyById(''), null);
});

test('entities are listed per namespace in name order; an unchanged entity is not written again', (t) => {
  const { db, v2 } = tables(t);
  const changes = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  v2.putEntity('default', 'b', { entity_class: '1' });
  v2.putEntity('default', 'a', { entity_class: '2' });
  v2.putEntity('ops', 'c', { entity_class: '3' });
  const before = changes();
  v2.putEntity('default', 'b', { entity_class: '1' });
  assert.equal(changes(), before);
  v2.putEntity('default', 'b', { entity_class: '4' });
  assert.equal(changes(), before + 1);
  assert.deepEqual(v2.listEntities('default'), [{ entity_class: '2' }, { entity_class: '4' }]);
  assert.deepEqual(v2.getEntity('ops', 'c'), { entity_class: '3' });
  assert.equal(v2.getEntity('ops', 'a'), null);
});

test('the namespaces holding a kind are listed whether or not the namespace exists', (t) => {
  const { v2 } = tables(t);
  v2.putResource('CheckConfig', 'zeta', 'a', {});
  v2.putResource('CheckConfig', 'default', 'b', {});
  v2.putResource('CheckConfig', 'default', 'c', {});
  v2.putResource('Handler', 'ops', 'h', {});
  assert.deepEqual(v2.namespacesWith('CheckConfig'), ['default', 'zeta']);
  assert.deepEqual(v2.listResources('CheckConfig', 'default'), [{}, {}]);
});
