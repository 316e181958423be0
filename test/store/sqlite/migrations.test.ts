// The SQLite schema's steps: what each adds or rebuilds, and which a store still has to run.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION, pendingMigrations } from '../../../src/store/sqlite/migrations.js';

function migratedTo(t: TestContext, version: number): Database.Database {
  const db = new Database(':memory:');
  t.after(() => db.close());
  for (const step of MIGRATIONS.slice(0, version)) db.exec(step);
  return db;
}

const tableSql = (db: Database.Database, name: string) =>
  (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) as { sql: string } | undefined)?.sql;

test('the schema version is the number of steps', () => {
  assert.equal(SCHEMA_VERSION, MIGRATIONS.length);
  assert.equal(SCHEMA_VERSION, 7);
});

test('a store runs every step after its own version, in order; none needs `checkbridge upgrade` today', () => {
  assert.deepEqual(pendingMigrations(0), { versions: [1, 2, 3, 4, 5, 6, 7], needsUpgradeCommand: false });
  assert.deepEqual(pendingMigrations(5), { versions: [6, 7], needsUpgradeCommand: false });
  assert.deepEqual(pendingMigrations(SCHEMA_VERSION), { versions: [], needsUpgradeCommand: false });
});

test('a pending step that changes what is there needs `checkbridge upgrade`; one already run does not', () => {
  const nonAdditive = new Set([6]);
  assert.deepEqual(pendingMigrations(4, nonAdditive), { versions: [5, 6, 7], needsUpgradeCommand: true });
  assert.deepEqual(pendingMigrations(5, nonAdditive), { versions: [6, 7], needsUpgradeCommand: true });
  assert.deepEqual(pendingMigrations(6, nonAdditive), { versions: [7], needsUpgradeCommand: false });
});

test('every step runs in order on an empty database, and step 5 creates the default namespace', (t) => {
  const db = migratedTo(t, SCHEMA_VERSION);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );
  assert.deepEqual(tables, [
    'aggregate_members',
    'api_keys',
    'auth_sessions',
    'clients',
    'counters',
    'dead_letters',
    'events',
    'outbox',
    'rehearsal_checks',
    'rehearsal_divergences',
    'rehearsal_state',
    'results',
    'secrets',
    'silences',
    'stashes',
    'upgrades',
    'users',
    'v2_entities',
    'v2_events',
    'v2_resources',
  ]);
  assert.deepEqual(db.prepare('SELECT * FROM v2_resources').all(), [{ kind: 'Namespace', namespace: '', name: 'default', data: '{"name":"default"}' }]);
});

test('step 6 rebuilds the per-result tables as rowid tables, keeping every row and each primary key', (t) => {
  const db = migratedTo(t, 5);
  const rebuilt = ['clients', 'results', 'events', 'v2_events', 'v2_entities'];
  for (const table of rebuilt) assert.match(tableSql(db, table)!, /WITHOUT ROWID/, table);
  db.prepare('INSERT INTO clients VALUES (?, ?)').run('a', '{"name":"a"}');
  db.prepare('INSERT INTO results VALUES (?, ?, ?, ?, ?)').run('a', 'cpu', '{}', '[{"status":0}]', 5);
  db.prepare('INSERT INTO events VALUES (?, ?, ?)').run('a', 'cpu', '{"id":1}');
  db.prepare('INSERT INTO v2_events VALUES (?, ?, ?, ?)').run('default', 'a', 'cpu', '{"id":2}');
  db.prepare('INSERT INTO v2_entities VALUES (?, ?, ?)').run('default', 'a', '{}');
  const rows = rebuilt.map((table) => db.prepare(`SELECT * FROM ${table}`).all());
  db.exec(MIGRATIONS[5]!);
  for (const table of rebuilt) assert.doesNotMatch(tableSql(db, table)!, /WITHOUT ROWID/, table);
  assert.deepEqual(
    rebuilt.map((table) => db.prepare(`SELECT * FROM ${table}`).all()),
    rows,
  );
  assert.throws(() => db.prepare('INSERT INTO results (client, check_name, data) VALUES (?, ?, ?)').run('a', 'cpu', '{}'), /UNIQUE constraint failed/);
  assert.throws(() => db.prepare('INSERT INTO v2_events VALUES (?, ?, ?, ?)').run('default', 'a', 'cpu', '{}'), /UNIQUE constraint failed/);
});
