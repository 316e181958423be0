// The legacy tables' statements, run on an SQLite database migrated to the current schema.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { prepareLegacyStatements, type LegacyStatements } from '../../../src/store/sql/legacy-statements.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';

function statements(t: TestContext): { db: Database.Database; s: LegacyStatements } {
  const db = new Database(':memory:');
  t.after(() => db.close());
  for (const step of MIGRATIONS) db.exec(step);
  return { db, s: prepareLegacyStatements(db) };
}

const count = (s: LegacyStatements, namespace: string, upTo: number) => (s.countEntities.get(namespace, upTo) as { n: number }).n;

test('a client is upserted by name, listed in name order and deleted', (t) => {
  const { s } = statements(t);
  s.putClient.run('b', '{"v":1}');
  s.putClient.run('a', '{"v":2}');
  s.putClient.run('b', '{"v":3}');
  assert.deepEqual(s.getClient.get('b'), { data: '{"v":3}' });
  assert.deepEqual(s.listClients.all(), [{ data: '{"v":2}' }, { data: '{"v":3}' }]);
  assert.equal(s.deleteClient.run('b').changes, 1);
  assert.equal(s.deleteClient.run('b').changes, 0);
  assert.equal(s.getClient.get('b'), undefined);
});

test('entities are counted once per namespace and name: invalidated clients and agent clients are left out', (t) => {
  const { db, s } = statements(t);
  s.putClient.run('web', JSON.stringify({ name: 'web' }));
  s.putClient.run('gone', JSON.stringify({ name: 'gone', invalidated: true }));
  // An agent's client record mirrors its entity: the entity is counted, in its own namespace.
  s.putClient.run('agent', JSON.stringify({ name: 'agent', entity_class: 'agent' }));
  const entity = db.prepare('INSERT INTO v2_entities VALUES (?, ?, ?)');
  entity.run('default', 'agent', '{}');
  entity.run('default', 'web', '{}');
  entity.run('ops', 'web', '{}');
  assert.equal(count(s, 'default', 100), 3, 'default/agent, default/web (entity and client), ops/web');
  assert.equal(count(s, 'legacy', 100), 4, 'the legacy client web is legacy/web, a name of its own');
  assert.equal(count(s, 'default', 2), 2, 'counted only up to the limit');
});

test('results: upserted per client and check with their history, listed per client, deleted by check or client', (t) => {
  const { s } = statements(t);
  s.putResult.run('a', 'cpu', '{"name":"cpu"}', '[]', null);
  s.putResult.run('a', 'cpu', '{"name":"cpu","status":1}', '[{"status":1,"executed":2}]', 7);
  s.putResult.run('a', 'disk', '{"name":"disk"}', '[]', null);
  s.putResult.run('b', 'cpu', '{"name":"cpu"}', '[]', 3);
  assert.deepEqual(s.getResult.get('a', 'cpu'), {
    client: 'a',
    data: '{"name":"cpu","status":1}',
    history: '[{"status":1,"executed":2}]',
    last_ok: 7,
  });
  assert.deepEqual(s.getHistory.get('a', 'cpu'), { history: '[{"status":1,"executed":2}]', last_ok: 7 });
  assert.deepEqual(
    (s.listResultChecks.all() as { client: string; data: string }[]).map((r) => `${r.client} ${r.data}`),
    ['a {"name":"cpu","status":1}', 'a {"name":"disk"}', 'b {"name":"cpu"}'],
  );
  assert.deepEqual(
    (s.listResultsOf.all('a') as { data: string }[]).map((r) => r.data),
    ['{"name":"cpu","status":1}', '{"name":"disk"}'],
  );
  assert.equal(s.deleteResultsOfCheck.run('cpu').changes, 2);
  assert.equal(s.deleteResult.run('a', 'disk').changes, 1);
  s.putResult.run('c', 'x', '{}', '[]', null);
  assert.equal(s.deleteResultsOfClient.run('c').changes, 1);
  assert.deepEqual(s.listResults.all(), []);
});

test('events: upserted per client and check, listed in key order, deleted one at a time or by client', (t) => {
  const { s } = statements(t);
  s.putEvent.run('b', 'cpu', '{"n":1}');
  s.putEvent.run('a', 'disk', '{"n":2}');
  s.putEvent.run('a', 'cpu', '{"n":3}');
  s.putEvent.run('a', 'cpu', '{"n":4}');
  assert.deepEqual(s.getEvent.get('a', 'cpu'), { data: '{"n":4}' });
  assert.deepEqual(s.listEvents.all(), [{ data: '{"n":4}' }, { data: '{"n":2}' }, { data: '{"n":1}' }]);
  assert.deepEqual(s.listEventsOf.all('a'), [{ data: '{"n":4}' }, { data: '{"n":2}' }]);
  assert.equal(s.deleteEvent.run('b', 'cpu').changes, 1);
  assert.equal(s.deleteEventsOfClient.run('a').changes, 2);
  assert.deepEqual(s.listEvents.all(), []);
});
