// `checkbridge upgrade` on an SQLite store: what it would do (read only), and the upgrade itself (a backup first).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StateStore, SCHEMA_VERSION } from '../../../src/store/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { checksInMissingNamespaces, planUpgrade, upgradeStore } from '../../../src/store/sqlite/upgrade.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

function storePath(t: TestContext): string {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  mkdirSync(join(dir, 'state'));
  return join(dir, 'state', 'checkbridge.db');
}

/** A store as a release of schema `version` left it, with a client. */
function oldStore(path: string, version: number): void {
  const db = new Database(path);
  for (let v = 1; v <= version; v++) {
    db.exec(MIGRATIONS[v - 1]!);
    db.pragma(`user_version = ${v}`);
  }
  db.prepare('INSERT INTO clients VALUES (?, ?)').run('old-client', '{"name":"old-client"}');
  db.close();
}

const versionOf = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

test('no store yet: a new one', (t) => {
  assert.deepEqual(planUpgrade(storePath(t)), { kind: 'new' });
});

test('a store of an older schema is to be upgraded from its version, and planning leaves it as it is', (t) => {
  const path = storePath(t);
  oldStore(path, 5);
  assert.deepEqual(planUpgrade(path), { kind: 'upgrade', from: 5, to: SCHEMA_VERSION });
  assert.equal(versionOf(path), 5);
});

test('a store of the current schema is current, and says whether `checkbridge upgrade` already ran on it', (t) => {
  const path = storePath(t);
  StateStore.open(path).close();
  assert.deepEqual(planUpgrade(path), { kind: 'current', version: SCHEMA_VERSION, alreadyRan: false });
  const db = new Database(path);
  db.prepare('INSERT INTO upgrades VALUES (?, ?, ?, ?)').run(SCHEMA_VERSION, 5, 1, null);
  db.close();
  assert.deepEqual(planUpgrade(path), { kind: 'current', version: SCHEMA_VERSION, alreadyRan: true });
});

test('a store of a newer schema is left to the newer binary', (t) => {
  const path = storePath(t);
  const db = new Database(path);
  db.pragma(`user_version = ${SCHEMA_VERSION + 2}`);
  db.close();
  assert.deepEqual(planUpgrade(path), { kind: 'newer', version: SCHEMA_VERSION + 2 });
});

test('a store with checks in namespaces that do not exist is refused, naming each check and namespace', (t) => {
  const path = storePath(t);
  oldStore(path, 5);
  const db = new Database(path);
  const put = db.prepare('INSERT INTO v2_resources VALUES (?, ?, ?, ?)');
  put.run('CheckConfig', 'ghost', 'cpu', '{}');
  put.run('CheckConfig', 'default', 'disk', '{}');
  put.run('Namespace', '', 'ops', '{"name":"ops"}');
  put.run('CheckConfig', 'ops', 'mem', '{}');
  assert.deepEqual(checksInMissingNamespaces(db), [{ check: 'cpu', namespace: 'ghost' }]);
  db.close();
  assert.deepEqual(planUpgrade(path), {
    kind: 'refused',
    version: 5,
    message: 'checks reference namespaces that do not exist: check cpu in namespace ghost; remove those checks or recreate their namespaces',
  });
});

test('a store from before the v2 tables has no checks in missing namespaces', (t) => {
  const path = storePath(t);
  oldStore(path, 2);
  const db = new Database(path, { readonly: true });
  t.after(() => db.close());
  assert.deepEqual(checksInMissingNamespaces(db), []);
});

test('the upgrade backs the store up beside itself at its old version, migrates it and records the upgrade', async (t) => {
  const path = storePath(t);
  oldStore(path, 5);
  const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
  const { backup } = await upgradeStore(path, 5, now);
  assert.equal(backup, `${path}.backup-schema-5-2026-01-02T03-04-05-678Z`);
  assert.ok(existsSync(backup));
  assert.equal(versionOf(backup), 5);
  assert.equal(versionOf(path), SCHEMA_VERSION);
  const db = new Database(path, { readonly: true });
  t.after(() => db.close());
  assert.deepEqual(db.prepare('SELECT * FROM upgrades').all(), [{ version: SCHEMA_VERSION, from_version: 5, upgraded_at: Math.floor(now / 1000), backup }]);
  assert.deepEqual(db.prepare('SELECT name FROM clients').all(), [{ name: 'old-client' }]);
  assert.deepEqual(planUpgrade(path), { kind: 'current', version: SCHEMA_VERSION, alreadyRan: true });
});
