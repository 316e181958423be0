// The offline commands' exclusive hold on a store: refused at once while a daemon has it open, and keeping daemons out.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { holdExclusively } from '../../../src/store/sqlite/exclusive-lock.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

function walStore(t: TestContext, files: Record<string, string> = {}): string {
  const dir = makeTree(files);
  t.after(() => removeTree(dir));
  const path = join(dir, 'store.db');
  if (Object.keys(files).length > 0) return path;
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)');
  db.close();
  return path;
}

const isError = (code: string, message: string) => (error: unknown) =>
  error instanceof CheckbridgeError && error.code === code && error.message.endsWith(message);

test('a store nobody holds is held until the connection closes: another connection is refused meanwhile', (t) => {
  const path = walStore(t);
  const held = new Database(path);
  holdExclusively(held, path);
  assert.deepEqual(held.prepare('SELECT n FROM t').all(), [{ n: 1 }]);
  const daemon = new Database(path, { timeout: 0 });
  t.after(() => daemon.close());
  assert.throws(() => daemon.prepare('SELECT n FROM t').all(), { code: 'SQLITE_BUSY' });
  held.close();
  assert.deepEqual(daemon.prepare('SELECT n FROM t').all(), [{ n: 1 }]);
});

test('a store a daemon has open is refused at once as in use, naming the file, and the connection is closed', (t) => {
  const path = walStore(t);
  const daemon = new Database(path);
  t.after(() => daemon.close());
  daemon.prepare('SELECT n FROM t').all();
  const offline = new Database(path);
  assert.throws(
    () => holdExclusively(offline, path),
    isError('CB_STORE_IN_USE', `${path} is open in another process (a checkbridge run on this state directory?)`),
  );
  assert.equal(offline.open, false);
});

test("a file that is not a store cannot be opened, with SQLite's reason", (t) => {
  const path = walStore(t, { 'store.db': 'not an SQLite database, only text long enough to be read as its header'.repeat(20) });
  const db = new Database(path);
  assert.throws(() => holdExclusively(db, path), isError('CB_STORE_OPEN', `${path}: file is not a database`));
  assert.equal(db.open, false);
});
