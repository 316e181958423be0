// The online backup of a live SQLite store: one consistent, checked, self-contained copy, owner-only, never over a file.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { StateStore, SCHEMA_VERSION } from '../../../src/store/index.js';
import { backupSqliteStore, privateCopyFile } from '../../../src/store/sqlite/backup.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

function liveStore(t: TestContext): { dir: string; path: string; store: StateStore } {
  const dir = makeTree({});
  const path = join(dir, 'state', 'checkbridge.db');
  const store = StateStore.open(path);
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  return { dir, path, store };
}

const mode = (path: string) => statSync(path).mode & 0o777;

test('a live store is copied whole, WAL included, into a self-contained owner-only file of its schema version', async (t) => {
  const { dir, path, store } = liveStore(t);
  store.putClient({ name: 'a', address: 'x' });
  store.putEvent('a', 'cpu', { id: 'e1' });
  const destination = join(dir, 'backup.db');
  const copy = await backupSqliteStore(path, destination);
  assert.deepEqual(copy, { bytes: statSync(destination).size, schemaVersion: SCHEMA_VERSION });
  assert.equal(mode(destination), 0o600);
  // Nothing left beside it: the private directory the copy was made in is gone.
  assert.deepEqual(readdirSync(dir).sort(), ['backup.db', 'state']);
  const db = new Database(destination, { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
  assert.deepEqual(db.prepare('SELECT data FROM clients').all(), [{ data: '{"name":"a","address":"x"}' }]);
  assert.deepEqual(db.prepare('SELECT data FROM events').all(), [{ data: '{"id":"e1"}' }]);
  // The live store goes on.
  store.putClient({ name: 'b' });
  assert.equal(store.listClients().length, 2);
});

test('a backup never overwrites a file: the existing one is left as it was, and nothing else is left behind', async (t) => {
  const { dir, path } = liveStore(t);
  const destination = join(dir, 'backup.db');
  writeFileSync(destination, 'precious');
  await assert.rejects(
    backupSqliteStore(path, destination),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_RUNTIME' && error.message.includes(`backup not written to ${destination}`),
  );
  assert.equal(readFileSync(destination, 'utf8'), 'precious');
  assert.deepEqual(readdirSync(dir).sort(), ['backup.db', 'state']);
});

test('a destination in a directory that does not exist is a usage error naming the directory', async (t) => {
  const { dir, path } = liveStore(t);
  const destination = join(dir, 'missing', 'backup.db');
  await assert.rejects(
    backupSqliteStore(path, destination),
    (error: unknown) =>
      error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && error.message.includes(`cannot write the backup into ${dirname(destination)}`),
  );
});

test('a store that does not exist is not created by a backup of it', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  await assert.rejects(backupSqliteStore(join(dir, 'none.db'), join(dir, 'backup.db')));
  assert.deepEqual(readdirSync(dir), []);
});

test("the copy's private place: a new owner-only directory beside the destination holding an empty owner-only file", (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const { directory, file } = privateCopyFile(join(dir, 'backup.db'));
  assert.equal(dirname(directory), dir);
  assert.match(basename(directory), /^\.backup\.db\.partial-/);
  assert.equal(mode(directory), 0o700);
  assert.equal(file, join(directory, 'copy.db'));
  assert.equal(mode(file), 0o600);
  assert.equal(statSync(file).size, 0);
  // A second one is another directory: two backups never share a place.
  assert.notEqual(privateCopyFile(join(dir, 'backup.db')).directory, directory);
});
