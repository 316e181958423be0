// PostgreSQL behind the store's synchronous interface: statements answered while the caller blocks, writes inside a
// transaction deferred (their row counts when asked), savepoints, and a caught failure that aborted the transaction.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { SyncPostgres } from '../../../src/store/postgres/sync-client.js';
import { PostgresQueryError } from '../../../src/store/postgres/query-error.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('sync');

let database: Promise<string> | null = null;
let schemas = 0;

/** A connection of its own, on a schema of its own (one database for the file) holding an empty table `t`. */
async function connected(t: TestContext, timeoutMs?: number): Promise<SyncPostgres | null> {
  if (!server) return (t.skip(missing!), null);
  const schema = `case_${++schemas}`;
  const db = new SyncPostgres(await (database ??= freshDsn()), {}, 'sync-test', schema, timeoutMs);
  t.after(() => db.close());
  db.exec(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (k text PRIMARY KEY, n bigint)`);
  return db;
}

const rows = (db: SyncPostgres) => db.prepare('SELECT k, n FROM t ORDER BY k').all();

test('statements answer rows with bigint as numbers, row counts, and server errors with their code', async (t) => {
  const db = await connected(t);
  if (!db) return;
  assert.equal(db.name, 'sync-test');
  assert.equal(db.prepare('INSERT INTO t VALUES (?, ?), (?, ?)').run('a', 1, 'b', 2).changes, 2);
  assert.deepEqual(db.prepare('SELECT k, n FROM t WHERE k = ?').get('b'), { k: 'b', n: 2 });
  assert.equal(db.prepare('SELECT k FROM t WHERE k = ?').get('none'), undefined);
  assert.equal(db.prepare('UPDATE t SET n = n + 1').run().changes, 2);
  assert.throws(
    () => db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 9),
    (error: unknown) => error instanceof PostgresQueryError && error.code === '23505' && !error.transactionLost,
  );
  assert.deepEqual(rows(db), [
    { k: 'a', n: 2 },
    { k: 'b', n: 3 },
  ]);
});

test('writes inside a transaction are deferred: their row counts come when asked, and they commit together', async (t) => {
  const db = await connected(t);
  if (!db) return;
  db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 1);
  db.transaction(() => {
    assert.equal(db.inTransaction, true);
    const inserted = db.prepare('INSERT INTO t VALUES (?, ?)').run("it's", 2);
    const updated = db.prepare('UPDATE t SET n = n * 10').run();
    const none = db.prepare('DELETE FROM t WHERE k = ?').run('nothing');
    assert.deepEqual([inserted.changes, updated.changes, none.changes], [1, 2, 0]);
    // Reads see the transaction's own writes (they were sent first).
    assert.deepEqual(db.prepare('SELECT count(*) AS c FROM t').get(), { c: 2 });
  })();
  assert.equal(db.inTransaction, false);
  assert.deepEqual(rows(db), [
    { k: 'a', n: 10 },
    { k: "it's", n: 20 },
  ]);
});

test('a failing nested transaction rolls back its savepoint only; a thrown error rolls back the whole', async (t) => {
  const db = await connected(t);
  if (!db) return;
  db.transaction(() => {
    db.prepare('INSERT INTO t VALUES (?, ?)').run('kept', 1);
    assert.throws(
      () =>
        db.transaction(() => {
          db.prepare('INSERT INTO t VALUES (?, ?)').run('undone', 2);
          db.prepare('INSERT INTO t VALUES (?, ?)').run('kept', 3);
        })(),
      (error: unknown) => error instanceof PostgresQueryError && error.code === '23505',
    );
    assert.equal(db.inTransaction, true);
  })();
  assert.deepEqual(rows(db), [{ k: 'kept', n: 1 }]);
  assert.throws(
    () =>
      db.transaction(() => {
        db.prepare('INSERT INTO t VALUES (?, ?)').run('gone', 1);
        throw new Error('changed my mind');
      })(),
    /changed my mind/,
  );
  assert.deepEqual(rows(db), [{ k: 'kept', n: 1 }]);
});

test('with savepoints not awaited, a failing write inside loses the whole transaction', async (t) => {
  const db = await connected(t);
  if (!db) return;
  db.awaitSavepoints = false;
  assert.throws(
    () =>
      db.transaction(() => {
        db.prepare('INSERT INTO t VALUES (?, ?)').run('first', 1);
        db.transaction(() => db.prepare('INSERT INTO t VALUES (?, ?)').run('first', 2))();
      })(),
    (error: unknown) => error instanceof PostgresQueryError && error.code === '23505' && error.transactionLost,
  );
  assert.equal(db.inTransaction, false);
  db.awaitSavepoints = true;
  assert.deepEqual(rows(db), []);
});

test('a transaction whose failure was caught inside does not count as committed', async (t) => {
  const db = await connected(t);
  if (!db) return;
  assert.throws(
    () =>
      db.transaction(() => {
        db.prepare('INSERT INTO t VALUES (?, ?)').run('lost', 1);
        try {
          db.prepare('SELECT * FROM no_such_table').all();
        } catch {
          // Caught, but the server has aborted the transaction.
        }
      })(),
    (error: unknown) => error instanceof PostgresQueryError && error.code === '25P02' && /rolled back/.test(error.message),
  );
  assert.deepEqual(rows(db), []);
});
