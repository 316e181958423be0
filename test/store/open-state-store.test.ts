// Where each engine's store is opened: the SQLite file with its options, or the shared PostgreSQL store by its DSN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../src/store/open-state-store.js';
import { SqliteStateStore } from '../../src/store/sqlite/sqlite-state-store.js';
import { CheckbridgeError } from '../../src/errors.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('open gives the SQLite store of the file, with the options given', (t) => {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'), { quotaBytes: 1024 * 1024 });
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  assert.ok(store instanceof SqliteStateStore);
  assert.equal(store.engine, 'sqlite');
  assert.equal(store.quotaBytes, 1024 * 1024);
  assert.equal(store.db.name, join(dir, 'checkbridge.db'));
});

test('openPostgres goes to the PostgreSQL server the DSN names: one that refuses is unavailable, its password not shown', () => {
  // Port 1 on the loopback refuses at once: no server is needed to see that the DSN was used.
  assert.throws(
    () => StateStore.openPostgres('postgres://user:secret@127.0.0.1:1/db'),
    (error: unknown) =>
      error instanceof CheckbridgeError &&
      error.code === 'CB_STORE_UNAVAILABLE' &&
      error.message.includes('postgres://user:REDACTED@127.0.0.1:1/db: connect ECONNREFUSED') &&
      !error.message.includes('secret'),
  );
});
