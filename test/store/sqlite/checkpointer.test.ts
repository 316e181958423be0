// The WAL checkpointer: a worker thread checkpoints, its durations and failures reach the owner, a run of one failure once.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { Checkpointer } from '../../../src/store/sqlite/checkpointer.js';
import { instanceFor, eventually } from '../../helpers/instance.js';
import { tcpExchange } from '../../helpers/net.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

// The checkpointer's thread, to count what it sent and see it end (nothing else shows either without waiting on a clock);
// held referenced, as the daemon's other handles would hold the process, since the checkpointer unrefs it.
function threadOf(checkpointer: Checkpointer): Worker {
  const thread = (checkpointer as unknown as { worker: Worker }).worker;
  thread.ref();
  return thread;
}

function database(t: TestContext, files: Record<string, string> = {}): { dir: string; db: Database.Database } {
  const dir = makeTree(files);
  const db = new Database(join(dir, 'store.db'));
  t.after(() => {
    db.close();
    removeTree(dir);
  });
  return { dir, db };
}

test("each checkpoint's duration reaches the owner; the automatic checkpoint stays as a backstop at 16,384 pages; stop ends the thread", async (t) => {
  const { db } = database(t);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)');
  const durations: number[] = [];
  const failures: string[] = [];
  let heard!: () => void;
  const checkpointed = new Promise<void>((resolve) => (heard = resolve));
  const checkpointer = new Checkpointer(
    db,
    (ms) => {
      durations.push(ms);
      heard();
    },
    (message) => failures.push(message),
  );
  const thread = threadOf(checkpointer);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 16_384);
  await checkpointed;
  assert.ok(durations.every((ms) => typeof ms === 'number' && ms >= 0));
  const exited = once(thread, 'exit');
  checkpointer.stop();
  await exited;
  assert.deepEqual(failures, []);
});

test('a run of the same failure is reported once', async (t) => {
  const { db } = database(t, { 'store.db': 'not an SQLite database, only text long enough to be read as its header'.repeat(20) });
  const failures: string[] = [];
  const checkpointer = new Checkpointer(
    db,
    () => assert.fail('no checkpoint succeeds'),
    (message) => failures.push(message),
  );
  t.after(() => checkpointer.stop());
  const thread = threadOf(checkpointer);
  for (let sent = 0; sent < 3; sent++) await once(thread, 'message');
  assert.deepEqual(failures, ['SQLITE_NOTADB: file is not a database']);
});

// The file's directory is replaced before the thread opens the file: gone, or a plain file SQLite cannot open under.
async function stoppedThread(t: TestContext, replace: (directory: string) => void): Promise<string[]> {
  const dir = makeTree({ 'state/.keep': '' });
  const db = new Database(join(dir, 'state', 'store.db'));
  t.after(() => {
    db.close();
    removeTree(dir);
  });
  const failures: string[] = [];
  let heard!: () => void;
  const reported = new Promise<void>((resolve) => (heard = resolve));
  replace(join(dir, 'state'));
  const checkpointer = new Checkpointer(
    db,
    () => assert.fail('no checkpoint succeeds'),
    (message) => {
      failures.push(message);
      heard();
    },
  );
  threadOf(checkpointer);
  await reported;
  return failures;
}

test('a thread that cannot open the file is reported as stopped, with the reason', async (t) => {
  const failures = await stoppedThread(t, (directory) => removeTree(directory));
  assert.deepEqual(failures, ['the checkpoint thread stopped: Cannot open database because the directory does not exist']);
});

test("a thread stopped by SQLite's own refusal to open the file is reported with SQLite's reason", async (t) => {
  const failures = await stoppedThread(t, (directory) => {
    removeTree(directory);
    writeFileSync(directory, '');
  });
  // The thread's SqliteError would reach this thread as a plain { code } object, without its message.
  assert.equal(failures.length, 1);
  assert.match(failures[0]!, /^the checkpoint thread stopped: .*(SQLITE_CANTOPEN|unable to open database file)/);
});

// The database file alone (without its -wal), as a copy: what a checkpoint has copied back so far. 0 while the copy
// has no schema yet (the migrations still in the WAL) or caught a checkpoint half-way.
function resultsInDatabaseFile(root: string): number {
  const copy = join(root, 'copy.db');
  copyFileSync(join(root, 'state', 'checkbridge.db'), copy);
  let db: Database.Database | null = null;
  try {
    db = new Database(copy, { readonly: true });
    return (db.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}

test('the daemon checkpoints its WAL in the background: committed results reach the database file without waiting for 1,000 pages', async (t) => {
  const client = { name: 'wal-host', address: '127.0.0.1', subscriptions: [] };
  const { socket, root } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const results = Array.from({ length: 20 }, (_, i) => ({ name: `check-${i}`, output: 'x', status: 0 }));
  assert.equal(await tcpExchange(socket, JSON.stringify(results)), 'ok');
  const inFile = await eventually(
    async () => resultsInDatabaseFile(root),
    (n) => n >= 20,
    30_000,
  );
  assert.ok(inFile >= 20, `the database file holds ${inFile} of 20 results`);
});
