// The datastore watch: reads (get, all) timed against the read threshold, log syncs against the sync threshold.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { DatastoreWarnings, WatchHolder, watchedDatabase, type DatastoreWatch } from '../../src/store/datastore-watch.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteStore } from '../helpers/sqlite-store.js';

type Report = [kind: 'read' | 'log sync', what: string];

// Thresholds of -1 report every call and of Infinity none, so no test depends on how long a statement takes.
function watch(readMs: number, syncMs: number, reports: Report[]): DatastoreWatch {
  return {
    readMs: () => readMs,
    syncMs: () => syncMs,
    report: (kind, ms, what) => {
      assert.equal(typeof ms, 'number');
      reports.push([kind, what]);
    },
  };
}

function memoryDatabase(t: TestContext): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
  t.after(() => db.open && db.close());
  return db;
}

test('without a watch, statements run and nothing is reported', (t) => {
  const holder = new WatchHolder();
  const db = watchedDatabase(memoryDatabase(t), holder);
  assert.equal(db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 1).changes, 1);
  assert.deepEqual(db.prepare('SELECT v FROM t WHERE k = ?').get('a'), { v: 1 });
  holder.sync(10_000, 'WAL checkpoint');
});

test('reads over the threshold are reported by the first 80 characters of their statement, whitespace collapsed', (t) => {
  const reports: Report[] = [];
  const holder = new WatchHolder();
  holder.watch = watch(-1, Infinity, reports);
  const db = watchedDatabase(memoryDatabase(t), holder);
  db.prepare('INSERT INTO t VALUES (?, ?)').run('secret-key', 1);
  const sql = `SELECT v
      FROM t   WHERE k = ? AND v > 0 AND v < 1000000 AND k != 'a rather long literal that makes it longer'`;
  assert.deepEqual(db.prepare(sql).get('secret-key'), { v: 1 });
  assert.deepEqual(db.prepare('  SELECT k FROM t  ').all(), [{ k: 'secret-key' }]);
  const label = sql.replace(/\s+/g, ' ').slice(0, 80);
  assert.equal(label.length, 80);
  // The write is not a read: never reported; the parameters never appear.
  assert.deepEqual(reports, [
    ['read', label],
    ['read', 'SELECT k FROM t'],
  ]);
});

test('reads within the threshold are not reported, and the threshold is asked on every read', (t) => {
  const reports: Report[] = [];
  let readMs = Infinity;
  const holder = new WatchHolder();
  holder.watch = { ...watch(0, Infinity, reports), readMs: () => readMs };
  const db = watchedDatabase(memoryDatabase(t), holder);
  const select = db.prepare('SELECT COUNT(*) AS n FROM t');
  assert.deepEqual(select.get(), { n: 0 });
  assert.deepEqual(reports, []);
  readMs = -1;
  assert.deepEqual(select.all(), [{ n: 0 }]);
  assert.deepEqual(reports, [['read', 'SELECT COUNT(*) AS n FROM t']]);
});

test('a read that throws is still timed, and its error reaches the caller', (t) => {
  const reports: Report[] = [];
  const holder = new WatchHolder();
  holder.watch = watch(-1, Infinity, reports);
  const raw = memoryDatabase(t);
  const db = watchedDatabase(raw, holder);
  const select = db.prepare('SELECT v FROM t');
  raw.exec('DROP TABLE t');
  assert.throws(() => select.get(), /no such table: t/);
  assert.deepEqual(reports, [['read', 'SELECT v FROM t']]);
});

test('a log sync is reported only over the sync threshold', () => {
  const reports: Report[] = [];
  const holder = new WatchHolder();
  holder.watch = watch(Infinity, 1000, reports);
  holder.sync(1000, 'COMMIT');
  holder.sync(1000.5, 'WAL checkpoint');
  assert.deepEqual(reports, [['log sync', 'WAL checkpoint']]);
});

test("SQLite's lazy iterate, transactions and the connection's state pass through", (t) => {
  const holder = new WatchHolder();
  const raw = memoryDatabase(t);
  const db = watchedDatabase(raw, holder);
  db.transaction(() => {
    assert.equal(db.inTransaction, true);
    db.prepare('INSERT INTO t VALUES (?, ?)').run('a', 1);
    db.prepare('INSERT INTO t VALUES (?, ?)').run('b', 2);
  })();
  assert.equal(db.inTransaction, false);
  const statement = db.prepare('SELECT k FROM t ORDER BY k') as ReturnType<typeof db.prepare> & { iterate?: () => Iterable<{ k: string }> };
  assert.deepEqual(
    [...statement.iterate!()].map((r) => r.k),
    ['a', 'b'],
  );
  assert.equal(db.name, ':memory:');
  assert.equal(db.open, true);
  db.close();
  assert.equal(raw.open, false);
  assert.equal(db.open, false);
});

test("the daemon's warnings: a real store's slow reads and syncs over the thresholds in force, each a warning of the store's log", (t) => {
  const store = sqliteStore(t);
  const { logger, lines } = capturedLogger();
  let settings = settingsOf({ checkbridge: { datastore_warnings: { read_ms: 0, sync_ms: 1 } } });
  const warnings = new DatastoreWarnings(() => settings, logger, store.engine);
  assert.deepEqual([warnings.readMs(), warnings.syncMs()], [0, 1]);
  store.watchDatastore(warnings);
  store.listClients();
  const read = lines.find((l) => l.kind === 'read');
  assert.equal(read?.level, 40);
  assert.equal(read?.msg, 'datastore read took over 0 ms');
  assert.equal(read?.engine, 'sqlite');
  assert.match(String(read?.what), /^SELECT/);
  assert.equal(typeof read?.ms, 'number');
  warnings.report('log sync', 12.345, 'WAL checkpoint');
  assert.deepEqual(
    lines.filter((l) => l.kind === 'log sync' && l.ms === 12.3).map((l) => [l.what, l.msg]),
    [['WAL checkpoint', 'datastore log sync took over 1 ms']],
  );
  // The thresholds are read live: new settings, new thresholds, and by default none of these reads is slow.
  settings = settingsOf({});
  assert.deepEqual([warnings.readMs(), warnings.syncMs()], [100, 1000]);
  const before = lines.length;
  store.listClients();
  assert.equal(lines.length, before);
});
