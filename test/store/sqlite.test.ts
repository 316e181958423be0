import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StateStore, SCHEMA_VERSION } from '../../src/store/index.js';
import { CheckbridgeError } from '../../src/errors.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { ROOT } from '../helpers/paths.js';
import { storeSuite } from './store-suite.js';

test('a new file is migrated to the current schema, in WAL mode, and reopens unchanged', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'state', 'checkbridge.db');
  const store = StateStore.open(path);
  assert.equal(store.schemaVersion(), SCHEMA_VERSION);
  assert.equal(store.sqlite!.pragma('journal_mode', { simple: true }), 'wal');
  store.putClient({ name: 'a', address: 'x' });
  store.putResult('a', { name: 'c', output: 'o', status: 1 }, [{ status: 1, executed: 5 }], null);
  store.putEvent('a', 'c', { id: 'e1' });
  store.close();
  const again = StateStore.open(path);
  assert.deepEqual(again.getClient('a'), { name: 'a', address: 'x' });
  assert.deepEqual(again.getResult('a', 'c')?.history, [{ status: 1, executed: 5 }]);
  assert.deepEqual(again.listEvents('a'), [{ id: 'e1' }]);
  again.close();
});

test('a store of schema 4 opens migrated: every row kept, the per-result tables rebuilt as rowid tables', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  mkdirSync(join(dir, 'state'));
  const path = join(dir, 'state', 'checkbridge.db');
  for (const suffix of ['', '-wal', '-shm']) copyFileSync(join(ROOT, 'test', 'fixtures', 'state-schema-4', `checkbridge.db${suffix}`), path + suffix);
  const tables = ['clients', 'results', 'events', 'v2_events', 'v2_entities'];
  const rowsOf = (db: Database.Database) => tables.map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all());
  const before = new Database(path);
  const rows = rowsOf(before);
  assert.ok(
    rows.every((r) => r.length > 0),
    'the fixture has a row in each table',
  );
  before.close();
  const store = StateStore.open(path);
  assert.equal(store.schemaVersion(), SCHEMA_VERSION);
  assert.deepEqual(rowsOf(store.sqlite!), rows);
  for (const table of tables) {
    const { sql } = store.sqlite!.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string };
    assert.doesNotMatch(sql, /WITHOUT ROWID/, table);
  }
  // The primary keys still hold: an upsert replaces, it does not add.
  store.putClient({ name: 'again', address: 'x' });
  store.putClient({ name: 'again', address: 'y' });
  assert.deepEqual(store.getClient('again'), { name: 'again', address: 'y' });
  store.close();
});

test('a file from a newer checkbridge is refused and left untouched', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'newer.db');
  const raw = new Database(path);
  raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  assert.throws(
    () => StateStore.open(path),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_NEWER',
  );
  const check = new Database(path);
  assert.equal(check.pragma('user_version', { simple: true }), SCHEMA_VERSION + 1);
  check.close();
});

storeSuite('sqlite', {
  async fresh() {
    const dir = makeTree({});
    after(() => removeTree(dir));
    return join(dir, 'state', 'checkbridge.db');
  },
  open: (path) => StateStore.open(path),
  async makeNewer(path) {
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
  },
});
