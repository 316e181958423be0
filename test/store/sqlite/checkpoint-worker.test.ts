// The checkpoint thread on its own: it copies committed WAL pages into the database file, reports each checkpoint's
// duration or failure, outlives its failures, and stops when told.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { makeTree, removeTree } from '../../helpers/tree.js';

type Message = number | { failed: string };

function startWorker(t: TestContext, path: string): { worker: Worker; next: () => Promise<Message> } {
  const worker = new Worker(new URL('../../../src/store/sqlite/checkpoint-worker.js', import.meta.url), { workerData: { path, intervalMs: 5 } });
  t.after(() => worker.terminate());
  return { worker, next: async () => (await once(worker, 'message'))[0] as Message };
}

// The rows the database file alone holds (a copy without its WAL): what checkpoints have copied back.
function rowsInDatabaseFile(dir: string, path: string): number {
  const copy = join(dir, 'copy.db');
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 't'").get() as { n: number }).n === 0
      ? 0
      : (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test('committed WAL pages reach the database file, each checkpoint reported by its duration', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'store.db');
  const db = new Database(path);
  t.after(() => db.close());
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (n INTEGER)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  db.transaction(() => Array.from({ length: 50 }, (_, i) => insert.run(i)))();
  assert.equal(rowsInDatabaseFile(dir, path), 0, 'before a checkpoint the rows are only in the WAL');
  const { next } = startWorker(t, path);
  const ms = await next();
  assert.equal(typeof ms, 'number');
  assert.ok((ms as number) >= 0);
  assert.equal(rowsInDatabaseFile(dir, path), 50);
});

test('a failing checkpoint is reported with its code and the thread goes on trying; told to stop, it ends', async (t) => {
  const dir = makeTree({ 'garbage.db': 'this is not an SQLite database, only text long enough to be read as a header'.repeat(20) });
  t.after(() => removeTree(dir));
  const { worker, next } = startWorker(t, join(dir, 'garbage.db'));
  const first = await next();
  assert.deepEqual(first, { failed: 'SQLITE_NOTADB: file is not a database' });
  assert.deepEqual(await next(), first);
  const exited = once(worker, 'exit');
  worker.postMessage('stop');
  assert.deepEqual(await exited, [0]);
});

test('a file it cannot open kills the thread at once, as an error its owner hears', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  writeFileSync(join(dir, 'file'), '');
  const { worker } = startWorker(t, join(dir, 'file', 'under-a-file.db'));
  // As a plain Error with SQLite's code and reason: SQLite's own error class would arrive as its code alone.
  const [error] = (await once(worker, 'error')) as [unknown];
  assert.ok(error instanceof Error);
  assert.equal(error.message, 'SQLITE_CANTOPEN: unable to open database file');
});
