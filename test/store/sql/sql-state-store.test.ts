// What both engines share (SqlStateStore), run on the SQLite store: failures mapped, units of work, reads, the watch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../../src/store/index.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';

test("a write failing in a transaction reaches the caller as the engine's failure: over the quota, CB_STORE_QUOTA", (t) => {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'), { quotaBytes: 256 * 1024 });
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  assert.throws(
    () => store.transaction(() => store.putEvent('c', 'x', { output: 'y'.repeat(400_000) })),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_QUOTA' && /maximum size of 262144 bytes/.test(error.message),
  );
  assert.equal(store.getEvent('c', 'x'), null);
  assert.equal(store.db.inTransaction, false);
});

test('a unit of work runs its function in one transaction and resolves with its value; a throw rejects and undoes it', async (t) => {
  const store = sqliteStore(t);
  const value = await store.unit(
    { pairs: [['a', 'cpu']], clients: ['a'] },
    () => {
      assert.equal(store.db.inTransaction, true);
      store.putClient({ name: 'a' });
      return 7;
    },
    assert.fail,
  );
  assert.equal(value, 7);
  assert.deepEqual(store.getClient('a'), { name: 'a' });
  await assert.rejects(
    store.unit(
      { pairs: [] },
      () => {
        store.putClient({ name: 'undone' });
        throw new Error('the unit failed');
      },
      assert.fail,
    ),
    /the unit failed/,
  );
  assert.equal(store.getClient('undone'), null);
  assert.equal(store.unitsInFlight, 1);
});

test('a read runs its function at once and resolves with its answer, or rejects with its error', async (t) => {
  const store = sqliteStore(t);
  store.putClient({ name: 'a', address: 'x' });
  assert.deepEqual(await store.read({ pairs: [['a', 'c']] }, () => store.getClient('a')), { name: 'a', address: 'x' });
  await assert.rejects(
    store.read({ pairs: [] }, () => {
      throw new Error('no answer');
    }),
    /no answer/,
  );
});

test("a result's history and last OK time are read without its check; every result's check is walked without its history", (t) => {
  const store = sqliteStore(t);
  assert.equal(store.getHistory('a', 'cpu'), null);
  store.putResult('b', { name: 'disk', status: 2 }, [{ status: 2, executed: 3 }], null);
  store.putResult('a', { name: 'cpu', status: 0 }, [{ status: 0, executed: 4 }], 4);
  assert.deepEqual(store.getHistory('a', 'cpu'), { history: [{ status: 0, executed: 4 }], lastOk: 4 });
  assert.deepEqual(store.getHistory('b', 'disk'), { history: [{ status: 2, executed: 3 }], lastOk: null });
  assert.deepEqual(
    [...store.resultChecks()],
    [
      { client: 'a', check: { name: 'cpu', status: 0 } },
      { client: 'b', check: { name: 'disk', status: 2 } },
    ],
  );
});

test("the store's problem is '' while it answers, and the reason once it cannot; closing twice is harmless", (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  assert.equal(store.problem(), '');
  store.close();
  assert.match(store.problem(), /not open/);
  store.close();
});

test("once a watch is set, the store's reads are reported to it", (t) => {
  const store = sqliteStore(t);
  const reads: string[] = [];
  store.putClient({ name: 'a' });
  store.getClient('a');
  store.watchDatastore({ readMs: () => -1, syncMs: () => Infinity, report: (kind, _ms, what) => reads.push(`${kind}: ${what}`) });
  store.getClient('a');
  assert.deepEqual(reads, ['read: SELECT data FROM clients WHERE name = ?']);
});
