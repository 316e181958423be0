// A key → JSON table whose rows vanish at their expiry, as Redis keys with a TTL did (on SQLite, as the embedded store).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { ExpiringTable, remainingSeconds } from '../../../src/store/tables/expiring-table.js';
import type { SqlDatabase } from '../../../src/store/sql/database.js';

function tableFor(t: { after(fn: () => void): void }) {
  const db = new Database(':memory:');
  t.after(() => db.close());
  db.exec('CREATE TABLE stashes (path TEXT PRIMARY KEY, content TEXT NOT NULL, expire_at INTEGER)');
  const count = () => (db.prepare('SELECT COUNT(*) AS n FROM stashes').get() as { n: number }).n;
  return { table: new ExpiringTable<{ n: number }>(db as unknown as SqlDatabase, 'stashes', 'path', 'content'), count };
}

test('remainingSeconds: seconds left, rounded, as Redis TTL said; -1 for never', () => {
  assert.equal(remainingSeconds({ expireAt: null }, 5_000), -1);
  assert.equal(remainingSeconds({ expireAt: 65_400 }, 5_000), 60);
  assert.equal(remainingSeconds({ expireAt: 65_600 }, 5_000), 61);
});

test('a row is served until its expiry and never after; a row without one stays', (t) => {
  const { table } = tableFor(t);
  table.put('a', { n: 1 }, 2_000);
  table.put('b', { n: 2 }, null);
  assert.deepEqual(table.get('a', 1_999), { key: 'a', value: { n: 1 }, expireAt: 2_000 });
  assert.equal(table.get('a', 2_000), null, 'expired at its expiry');
  assert.deepEqual(table.get('b', 10 ** 15), { key: 'b', value: { n: 2 }, expireAt: null });
  assert.equal(table.get('missing', 0), null);
  table.put('a', { n: 3 }, null);
  assert.deepEqual(table.get('a', 5_000), { key: 'a', value: { n: 3 }, expireAt: null }, 'a put replaces value and expiry');
});

test('list gives the live rows in key order and purges the expired ones', (t) => {
  const { table, count } = tableFor(t);
  table.put('c', { n: 3 }, null);
  table.put('a', { n: 1 }, 1_000);
  table.put('b', { n: 2 }, 5_000);
  assert.deepEqual(
    table.list(2_000).map((row) => row.key),
    ['b', 'c'],
  );
  assert.equal(count(), 2, 'the expired row is gone from the table');
});

test('delete says whether a live row was removed; an expired one does not count', (t) => {
  const { table, count } = tableFor(t);
  table.put('a', { n: 1 }, 1_000);
  table.put('b', { n: 2 }, null);
  assert.equal(table.delete('a', 2_000), false, 'already expired');
  assert.equal(count(), 1, 'and purged');
  assert.equal(table.delete('b', 2_000), true);
  assert.equal(table.delete('b', 2_000), false);
});

test('a snapshot serves gets from one read, keeps what is written meanwhile, and ends on reset', (t) => {
  const { table } = tableFor(t);
  table.put('a', { n: 1 }, null);
  assert.equal(table.knownEmpty, false);
  table.snapshotUntilReset();
  assert.equal(table.knownEmpty, false, 'not read yet');
  assert.deepEqual(table.get('a', 0)?.value, { n: 1 });
  table.put('b', { n: 2 }, 100);
  assert.deepEqual(table.get('b', 50)?.value, { n: 2 }, 'a write during the snapshot is in it');
  assert.equal(table.get('b', 100), null, 'and expires in it too');
  table.delete('a', 0);
  assert.equal(table.get('a', 0), null);
  table.resetSnapshot();
  assert.equal(table.get('a', 0), null);
  assert.deepEqual(table.get('b', 50)?.value, { n: 2 });
});

test('snapshotWhenAtMost snapshots a small table only; an empty snapshot is known empty', (t) => {
  const { table } = tableFor(t);
  table.snapshotWhenAtMost(5);
  assert.equal(table.knownEmpty, true);
  table.resetSnapshot();
  for (let i = 0; i < 3; i++) table.put(`k${i}`, { n: i }, null);
  table.snapshotWhenAtMost(2);
  assert.equal(table.knownEmpty, false);
  table.snapshotWhenAtMost(3);
  assert.equal(table.knownEmpty, false);
  assert.deepEqual(table.get('k2', 0)?.value, { n: 2 });
});

test('snapshotFrom takes rows read elsewhere with allSql', (t) => {
  const { table } = tableFor(t);
  table.put('a', { n: 1 }, null);
  assert.match(table.allSql, /^SELECT path AS key, content AS data, expire_at FROM stashes$/);
  table.snapshotFrom([{ key: 'x', data: '{"n":9}', expire_at: null }]);
  assert.deepEqual(table.get('x', 0)?.value, { n: 9 }, 'served from the rows given');
  assert.equal(table.get('a', 0), null, 'not from the table');
  table.resetSnapshot();
  assert.deepEqual(table.get('a', 0)?.value, { n: 1 });
});
