// The embedded SQLite store: opened and migrated, its quota and alarms, its group commits, its background checkpoints.
import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StateStore, SCHEMA_VERSION, GroupRetry } from '../../../src/store/index.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { ROOT } from '../../helpers/paths.js';
import { storeSuite } from '../store-suite.js';

test('a new file is migrated to the current schema, in WAL mode, and reopens unchanged', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'state', 'checkbridge.db');
  const store = StateStore.open(path);
  assert.equal(store.schemaVersion(), SCHEMA_VERSION);
  assert.equal(store.sqlite!.pragma('journal_mode', { simple: true }), 'wal');
  store.putClient({ name: 'a', address: 'x' });
  store.putResult('a', { name: 'c', output: 'o', status: 1 }, [{ status: 1, executed: 5 }], null);
  store.putEvent('a', 'c', { id: 'e1' });
  store.close();
  const again = StateStore.open(path);
  assert.deepEqual(again.getClient('a'), { name: 'a', address: 'x' });
  assert.deepEqual(again.getResult('a', 'c')?.history, [{ status: 1, executed: 5 }]);
  assert.deepEqual(again.listEvents('a'), [{ id: 'e1' }]);
  again.close();
});

test('a store of schema 4 opens migrated: every row kept, the per-result tables rebuilt as rowid tables', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  mkdirSync(join(dir, 'state'));
  const path = join(dir, 'state', 'checkbridge.db');
  for (const suffix of ['', '-wal', '-shm']) copyFileSync(join(ROOT, 'test', 'fixtures', 'state-schema-4', `checkbridge.db${suffix}`), path + suffix);
  const tables = ['clients', 'results', 'events', 'v2_events', 'v2_entities'];
  const rowsOf = (db: Database.Database) => tables.map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all());
  const before = new Database(path);
  const rows = rowsOf(before);
  assert.ok(
    rows.every((r) => r.length > 0),
    'the fixture has a row in each table',
  );
  before.close();
  const store = StateStore.open(path);
  assert.equal(store.schemaVersion(), SCHEMA_VERSION);
  assert.deepEqual(rowsOf(store.sqlite!), rows);
  for (const table of tables) {
    const { sql } = store.sqlite!.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string };
    assert.doesNotMatch(sql, /WITHOUT ROWID/, table);
  }
  // The primary keys still hold: an upsert replaces, it does not add.
  store.putClient({ name: 'again', address: 'x' });
  store.putClient({ name: 'again', address: 'y' });
  assert.deepEqual(store.getClient('again'), { name: 'again', address: 'y' });
  store.close();
});

test('a file from a newer checkbridge is refused and left untouched', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'newer.db');
  const raw = new Database(path);
  raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  assert.throws(
    () => StateStore.open(path),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_NEWER',
  );
  const check = new Database(path);
  assert.equal(check.pragma('user_version', { simple: true }), SCHEMA_VERSION + 1);
  check.close();
});

function storeIn(t: TestContext, options: Parameters<typeof StateStore.open>[1] = {}): { dir: string; path: string; store: StateStore } {
  const dir = makeTree({});
  const path = join(dir, 'state', 'checkbridge.db');
  const store = StateStore.open(path, options);
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  return { dir, path, store };
}

const isError = (code: string, message: RegExp) => (error: unknown) => error instanceof CheckbridgeError && error.code === code && message.test(error.message);

test('a new store is owner-only (directory 0700, files 0600) with 8 KB pages, and opened at version 0', (t) => {
  const { dir, path, store } = storeIn(t);
  store.putClient({ name: 'a' });
  store.close();
  const again = StateStore.open(path);
  t.after(() => again.close());
  assert.equal(statSync(join(dir, 'state')).mode & 0o777, 0o700);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
  assert.equal(again.sqlite!.pragma('page_size', { simple: true }), 8192);
  assert.equal(store.openedAtVersion, 0);
  assert.equal(again.openedAtVersion, SCHEMA_VERSION);
});

test('a path that cannot hold a store is refused as CB_STORE_OPEN, naming it', (t) => {
  const dir = makeTree({ 'a-file': '' });
  t.after(() => removeTree(dir));
  const path = join(dir, 'a-file', 'checkbridge.db');
  assert.throws(() => StateStore.open(path), isError('CB_STORE_OPEN', new RegExp(`^cannot open the state store: ${path}: `)));
});

test('an exclusive open is refused while another store holds the file, and keeps the file from others until it closes', (t) => {
  const { path, store } = storeIn(t);
  assert.throws(() => StateStore.open(path, { exclusive: true }), isError('CB_STORE_IN_USE', /is open in another process/));
  store.close();
  const offline = StateStore.open(path, { exclusive: true });
  assert.equal(offline.listClients().length, 0);
  const daemon = new Database(path, { timeout: 0 });
  t.after(() => daemon.close());
  assert.throws(() => daemon.prepare('SELECT COUNT(*) FROM clients').get(), { code: 'SQLITE_BUSY' });
  offline.close();
  assert.deepEqual(daemon.prepare('SELECT COUNT(*) AS n FROM clients').get(), { n: 0 });
});

test('a write refused over the quota raises the alarm, which holds until the store shrinks below that size', (t) => {
  const { store } = storeIn(t, { quotaBytes: 256 * 1024 });
  assert.equal(store.alarm(), null);
  let refused: unknown = null;
  for (let i = 0; i < 200 && refused === null; i++) {
    try {
      store.transaction(() => store.putEvent('c', `check-${i}`, { output: 'y'.repeat(8000) }));
    } catch (error) {
      refused = error;
    }
  }
  assert.ok(isError('CB_STORE_QUOTA', /maximum size of 262144 bytes/)(refused), String(refused));
  assert.match(store.alarm() ?? '', /^NOSPACE: the embedded datastore uses \d+ of its 262144 bytes/);
  store.transaction(() => store.deleteClient('c'));
  assert.equal(store.alarm(), null);
  // Any other failure is left as it is, and raises nothing.
  const other = new Error('something else');
  assert.equal(store.failure(other), other);
  assert.equal(store.alarm(), null);
});

test('a group commit whose first run fails runs again with a savepoint per write: only the failing write fails', (t) => {
  const { store } = storeIn(t);
  let retries = 0;
  let failed: string[] = [];
  const write = (name: string) => {
    if (name === 'bad') throw new Error('bad client');
    store.putClient({ name });
  };
  const written = store.groupCommit(
    () => {
      for (const name of ['a', 'bad', 'c']) {
        try {
          store.savepoint(() => write(name));
        } catch (error) {
          if (error instanceof GroupRetry) throw error;
          failed.push(name);
        }
      }
      return store.listClients().length;
    },
    () => {
      retries++;
      failed = [];
    },
  );
  assert.equal(written, 2);
  assert.equal(retries, 1);
  assert.deepEqual(failed, ['bad']);
  assert.deepEqual(
    store.listClients().map((c) => c.name),
    ['a', 'c'],
  );
});

test('a group commit that fails outside any savepoint is not run again: the error reaches the caller and nothing is kept', (t) => {
  const { store } = storeIn(t);
  assert.throws(
    () =>
      store.groupCommit(
        () => {
          store.putClient({ name: 'a' });
          throw new Error('the group failed');
        },
        () => assert.fail('not run again'),
      ),
    /the group failed/,
  );
  assert.deepEqual(store.listClients(), []);
  // Outside a group commit a savepoint is a real one: its failure is its own, not a GroupRetry.
  assert.throws(
    () =>
      store.savepoint(() => {
        throw new Error('alone');
      }),
    (error: unknown) => !(error instanceof GroupRetry) && /alone/.test((error as Error).message),
  );
});

test("a group of 16 results or more reads the silences once, for the transaction's length only", (t) => {
  const { store } = storeIn(t);
  const pairs = (n: number) => Array.from({ length: n }, (_, i) => ['client', `check-${i}`] as const);
  store.transaction(() => {
    store.lockResults(pairs(15));
    assert.equal(store.silences.knownEmpty, false);
    store.lockResults(pairs(16));
    assert.equal(store.silences.knownEmpty, true);
  });
  assert.equal(store.silences.knownEmpty, false);
});

test("background checkpoints report their durations as log syncs to the store's watch", async (t) => {
  const { store } = storeIn(t);
  const syncs: string[] = [];
  let heard!: () => void;
  const synced = new Promise<void>((resolve) => (heard = resolve));
  store.watchDatastore({
    readMs: () => Infinity,
    syncMs: () => -1,
    report: (kind, _ms, what) => {
      syncs.push(`${kind}: ${what}`);
      heard();
    },
  });
  store.checkpointInBackground(assert.fail);
  store.checkpointInBackground(assert.fail);
  // The checkpoint thread does not hold the process open: this timer does, until the first checkpoint.
  const hold = setInterval(() => undefined, 1000);
  await synced;
  clearInterval(hold);
  assert.equal(syncs[0], 'log sync: WAL checkpoint');
});

storeSuite('sqlite', {
  async fresh() {
    const dir = makeTree({});
    after(() => removeTree(dir));
    return join(dir, 'state', 'checkbridge.db');
  },
  open: (path) => StateStore.open(path),
  async makeNewer(path) {
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
  },
});
