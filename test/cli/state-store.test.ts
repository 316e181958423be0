import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStateStore } from '../../src/cli/state-store.js';
import { StateStore } from '../../src/store/index.js';
import { CheckbridgeError } from '../../src/errors.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('a new SQLite store opens and the log says which store holds the state', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const { logger, lines } = capturedLogger();
  const store = openStateStore({ path: join(dir, 'checkbridge.db') }, logger);
  try {
    assert.equal(store.engine, 'sqlite');
    assert.deepEqual(
      lines.map((l) => [l.msg, l.engine]),
      [['state store: embedded SQLite file', 'sqlite']],
      'a new store is not an upgrade',
    );
  } finally {
    store.close();
  }
});

test('checks in namespaces that do not exist refuse the start, naming them, and leave the store closed', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'checkbridge.db');
  const seeded = StateStore.open(path);
  seeded.transaction(() => seeded.resources.putResource('CheckConfig', 'ghost', 'orphan', { metadata: { name: 'orphan', namespace: 'ghost' } }));
  seeded.close();
  const { logger, lines } = capturedLogger();
  assert.throws(
    () => openStateStore({ path }, logger),
    (error: unknown) =>
      error instanceof CheckbridgeError &&
      error.code === 'CB_UPGRADE_REFUSED' &&
      error.message.endsWith(
        'refusing to start: checks reference namespaces that do not exist: check orphan in namespace ghost; remove those checks or recreate their namespaces',
      ),
  );
  assert.deepEqual(lines, []);
  // Closed: SQLite removes the write-ahead log when its last connection closes.
  assert.equal(existsSync(`${path}-wal`), false);
});
