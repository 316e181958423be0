// A group commit's connection as the store's tables see it: a statement on a batched table first sends the batch's
// pending writes; any other statement, and the connection's own state, pass straight through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { guarded } from '../../../src/store/postgres/guarded-connection.js';

function setUp() {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE clients (name TEXT PRIMARY KEY); CREATE TABLE v2_entities (name TEXT); CREATE TABLE silences (id TEXT); CREATE TABLE users (name TEXT)',
  );
  let sent = 0;
  return { db, guardedDb: guarded(db, () => void sent++), sent: () => sent };
}

test('each get, all and run on a batched table sends the pending writes first', () => {
  const { db, guardedDb, sent } = setUp();
  try {
    guardedDb.prepare('INSERT INTO clients VALUES (?)').run('a');
    assert.equal(sent(), 1);
    assert.deepEqual(guardedDb.prepare('SELECT name FROM clients WHERE name = ?').get('a'), { name: 'a' });
    assert.deepEqual(guardedDb.prepare('select count(*) AS n from V2_ENTITIES').all(), [{ n: 0 }]);
    assert.equal(sent(), 3, 'once per statement run, whatever the case of the table name');
  } finally {
    db.close();
  }
});

test('statements on other tables, even ones whose names contain a batched name, send nothing', () => {
  const { db, guardedDb, sent } = setUp();
  try {
    guardedDb.prepare('INSERT INTO silences VALUES (?)').run('s');
    guardedDb.prepare('SELECT * FROM users').all();
    assert.deepEqual(guardedDb.prepare('SELECT id AS client_events FROM silences').get(), { client_events: 's' });
    assert.equal(sent(), 0);
  } finally {
    db.close();
  }
});

test('transactions, their state, the name and close are the connection’s own', () => {
  const { db, guardedDb } = setUp();
  assert.equal(guardedDb.name, ':memory:');
  assert.equal(guardedDb.open, true);
  guardedDb.transaction(() => {
    assert.equal(guardedDb.inTransaction, true);
    guardedDb.prepare('INSERT INTO users VALUES (?)').run('u');
  })();
  assert.equal(guardedDb.inTransaction, false);
  assert.deepEqual(db.prepare('SELECT name FROM users').all(), [{ name: 'u' }]);
  guardedDb.close();
  assert.equal(db.open, false);
  assert.equal(guardedDb.open, false);
});
