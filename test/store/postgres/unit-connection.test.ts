// A unit of work's connection: BEGIN travels with its reads (their rows answered), its writes with COMMIT, which
// answers the transaction id its rows carry; a failure rolls the unit back and leaves the connection usable. It runs
// on the main thread: a statement that would block is refused, and inside a unit it gives the unit up.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { UnitPostgres } from '../../../src/store/postgres/unit-connection.js';
import { BlockedRead, PostgresQueryError } from '../../../src/store/postgres/query-error.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('unit');

let database: Promise<string> | null = null;
let schemas = 0;

/** A connection of its own, on a schema of its own (one database for the file) holding rows a and b. */
async function connected(t: TestContext): Promise<UnitPostgres | null> {
  if (!server) return (t.skip(missing!), null);
  const schema = `case_${++schemas}`;
  const db = new UnitPostgres(await (database ??= freshDsn()), {}, 'unit-test', schema);
  t.after(() => db.close());
  await db.requestAsync({
    sql: `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (k text PRIMARY KEY, n integer); INSERT INTO ${schema}.t VALUES ('a', 1), ('b', 2)`,
    simple: true,
  });
  return db;
}

const query = async (db: UnitPostgres, sql: string) => (await db.requestAsync({ sql, simple: true })).rows;
const rows = (db: UnitPostgres) => query(db, 'SELECT k, n FROM t ORDER BY k');

test('a unit answers its reads, commits its writes with COMMIT, and answers the id its rows carry', async (t) => {
  const db = await connected(t);
  if (!db) return;
  db.warm();
  const read = await db.beginUnit(["SELECT n FROM t WHERE k = 'a'", "SELECT k FROM t WHERE k = 'none'"]);
  assert.deepEqual(
    read.map((r) => r.rows),
    [[{ n: 1 }], []],
  );
  assert.equal(db.inTransaction, true);
  db.prepare('UPDATE t SET n = ? WHERE k = ?').run(10, 'a');
  db.prepare('INSERT INTO t VALUES (?, ?)').run('c', 3);
  const xid = await db.commitUnit();
  assert.equal(db.inTransaction, false);
  assert.match(String(xid), /^\d+$/);
  assert.deepEqual(await query(db, "SELECT DISTINCT xmin::text AS x FROM t WHERE k IN ('a', 'c')"), [{ x: xid }]);
  assert.deepEqual(await rows(db), [
    { k: 'a', n: 10 },
    { k: 'b', n: 2 },
    { k: 'c', n: 3 },
  ]);
});

test('a unit without reads sends its BEGIN with its writes', async (t) => {
  const db = await connected(t);
  if (!db) return;
  assert.deepEqual(await db.beginUnit([]), []);
  assert.equal(db.inTransaction, true);
  db.prepare('DELETE FROM t WHERE k = ?').run('b');
  assert.match(String(await db.commitUnit()), /^\d+$/);
  assert.deepEqual(await rows(db), [{ k: 'a', n: 1 }]);
});

test('a unit may not begin inside a transaction', async (t) => {
  const db = await connected(t);
  if (!db) return;
  await db.beginUnit([]);
  await assert.rejects(db.beginUnit([]), /a unit of work began inside a transaction/);
  await db.rollbackUnit();
  assert.equal(db.inTransaction, false);
});

test('a failing read rolls the unit back: the error is the read’s, the connection is usable', async (t) => {
  const db = await connected(t);
  if (!db) return;
  await assert.rejects(
    db.beginUnit(['SELECT 1', 'SELECT * FROM no_such_table']),
    (error: unknown) => error instanceof PostgresQueryError && error.code === '42P01',
  );
  assert.equal(db.inTransaction, false);
  assert.deepEqual(await query(db, 'SELECT count(*) AS c FROM t'), [{ c: 2 }]);
});

test('a write failing at COMMIT loses the whole unit: nothing of it is kept', async (t) => {
  const db = await connected(t);
  if (!db) return;
  await db.beginUnit(['SELECT 1']);
  db.prepare('UPDATE t SET n = 100').run();
  db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 9);
  await assert.rejects(db.commitUnit(), (error: unknown) => error instanceof PostgresQueryError && error.code === '23505' && error.transactionLost);
  assert.equal(db.inTransaction, false);
  assert.deepEqual(await rows(db), [
    { k: 'a', n: 1 },
    { k: 'b', n: 2 },
  ]);
});

test('rolling a unit back drops its writes', async (t) => {
  const db = await connected(t);
  if (!db) return;
  await db.beginUnit(["SELECT k FROM t WHERE k = 'a'"]);
  db.prepare('DELETE FROM t').run();
  await db.rollbackUnit();
  await db.rollbackUnit();
  assert.equal(db.inTransaction, false);
  assert.equal((await rows(db)).length, 2);
});

test('a statement that would block the thread is refused outside a unit, and inside one gives the unit up', async (t) => {
  const db = await connected(t);
  if (!db) return;
  assert.throws(() => db.prepare('SELECT n FROM t WHERE k = ?').get('a'), /cannot wait here without blocking the thread/);
  await db.beginUnit(['SELECT 1']);
  db.prepare('UPDATE t SET n = ? WHERE k = ?').run(50, 'a');
  let blocked: unknown;
  try {
    db.prepare('SELECT n FROM t WHERE k = ?').get('b');
  } catch (error) {
    blocked = error;
  }
  // A plain read: what the caller may read outside the unit before running it again.
  assert.ok(blocked instanceof BlockedRead && blocked.transactionLost);
  assert.deepEqual(blocked.read, { sql: 'SELECT n FROM t WHERE k = $1', params: ['b'] });
  // Caught inside and the unit carried on: its COMMIT still fails, and the write before the read is gone.
  assert.equal(db.inTransaction, false);
  await assert.rejects(db.commitUnit(), (error: unknown) => error === blocked);
  assert.deepEqual(await rows(db), [
    { k: 'a', n: 1 },
    { k: 'b', n: 2 },
  ]);
  // A write that answers rows is not a plain read: nothing to read ahead.
  await db.beginUnit(['SELECT 1']);
  assert.throws(
    () => db.prepare('SELECT n FROM t WHERE k = ? FOR UPDATE').get('a'),
    (error: unknown) => error instanceof BlockedRead && error.read === null,
  );
  await db.rollbackUnit();
});

test('a read answered ahead is taken by the unit that runs again, while it holds good; cleared, it blocks again', async (t) => {
  const db = await connected(t);
  if (!db) return;
  const read = { sql: 'SELECT n FROM t WHERE k = $1', params: ['b'] };
  await db.beginUnit(['SELECT 1']);
  let good = true;
  db.answeredReads.put(read, [{ n: 42 }], () => good);
  assert.deepEqual(db.prepare('SELECT n FROM t WHERE k = ?').get('b'), { n: 42 });
  assert.deepEqual(db.prepare('SELECT n FROM t WHERE k = ?').get('b'), { n: 42 }, 'read twice, answered twice');
  good = false;
  assert.throws(() => db.prepare('SELECT n FROM t WHERE k = ?').get('b'), BlockedRead);
  await db.rollbackUnit();
  // Kept across the unit's runs until its store clears them.
  await db.beginUnit(['SELECT 1']);
  db.answeredReads.put(read, [{ n: 43 }], () => true);
  await db.rollbackUnit();
  await db.beginUnit(['SELECT 1']);
  assert.deepEqual(db.prepare('SELECT n FROM t WHERE k = ?').get('b'), { n: 43 });
  db.answeredReads.clear();
  assert.throws(() => db.prepare('SELECT n FROM t WHERE k = ?').get('b'), BlockedRead);
  await db.rollbackUnit();
});
