// A unit of work's connection: BEGIN travels with its reads (their rows answered), its writes with COMMIT, which
// answers the transaction id its rows carry; a failure rolls the unit back and leaves the connection usable.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { UnitPostgres } from '../../../src/store/postgres/unit-connection.js';
import { PostgresQueryError } from '../../../src/store/postgres/query-error.js';
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
  db.exec(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (k text PRIMARY KEY, n integer); INSERT INTO ${schema}.t VALUES ('a', 1), ('b', 2)`);
  return db;
}

const rows = (db: UnitPostgres) => db.prepare('SELECT k, n FROM t ORDER BY k').all();

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
  assert.deepEqual(db.prepare("SELECT DISTINCT xmin::text AS x FROM t WHERE k IN ('a', 'c')").all(), [{ x: xid }]);
  assert.deepEqual(rows(db), [
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
  assert.deepEqual(rows(db), [{ k: 'a', n: 1 }]);
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
  assert.deepEqual(db.prepare('SELECT count(*) AS c FROM t').get(), { c: 2 });
});

test('a write failing at COMMIT loses the whole unit: nothing of it is kept', async (t) => {
  const db = await connected(t);
  if (!db) return;
  await db.beginUnit(['SELECT 1']);
  db.prepare('UPDATE t SET n = 100').run();
  db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 9);
  await assert.rejects(db.commitUnit(), (error: unknown) => error instanceof PostgresQueryError && error.code === '23505' && error.transactionLost);
  assert.equal(db.inTransaction, false);
  assert.deepEqual(rows(db), [
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
  assert.equal(rows(db).length, 2);
});
