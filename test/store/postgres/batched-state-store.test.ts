// The legacy tables in a PostgreSQL group commit: the rows read for the batch answer its reads (another server's later
// change is not seen until the transaction ends), the first run's writes wait in the batch and are sent at COMMIT, and
// a delete that is not kept in the batch drops it, so that later reads go to the database.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import type { PostgresStateStore } from '../../../src/store/postgres/postgres-state-store.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('batched');

/** This server's store and another's on the same database, a client `web` with results and an event stored. */
async function twoServers(t: TestContext): Promise<{ store: PostgresStateStore; other: PostgresStateStore } | null> {
  if (!server) return (t.skip(missing!), null);
  const dsn = await freshDsn();
  const store = StateStore.openPostgres(dsn, {});
  const other = StateStore.openPostgres(dsn, {});
  t.after(() => (store.close(), other.close()));
  other.putClient({ name: 'web', v: 1 });
  other.putResult('web', { name: 'disk', status: 1 }, [{ status: 1, executed: 10 }], null);
  other.putResult('web', { name: 'cpu', status: 0 }, [{ status: 0, executed: 10 }], 10);
  other.putEvent('web', 'disk', { action: 'create', v: 1 });
  return { store, other };
}

/** Rows the transaction has sent to `table` so far, asked in words the guard does not take for a batched table. */
const sentTo = (store: PostgresStateStore, table: string) =>
  (
    store.db.prepare('SELECT n_tup_ins + n_tup_upd + n_tup_del AS n FROM pg_stat_xact_user_tables WHERE relname = lower(?)').get(table.toUpperCase()) as
      { n: number } | undefined
  )?.n ?? 0;

test('in a transaction, the rows read for the batch answer its reads until it ends', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { store, other } = servers;
  store.transaction(() => {
    store.lockResults([
      ['web', 'disk'],
      ['web', 'mem'],
    ]);
    // Another server changes them after the batch read them (no row of theirs is locked: advisory locks only).
    other.putClient({ name: 'web', v: 2 });
    other.putResult('web', { name: 'disk', status: 2 }, [{ status: 2, executed: 20 }], null);
    other.putResult('web', { name: 'mem', status: 0 }, [], 20);
    other.putEvent('web', 'disk', { action: 'create', v: 2 });
    assert.deepEqual(store.getClient('web'), { name: 'web', v: 1 });
    assert.deepEqual(store.getResult('web', 'disk')?.check, { name: 'disk', status: 1 });
    assert.deepEqual(store.getHistory('web', 'disk'), { history: [{ status: 1, executed: 10 }], lastOk: null });
    assert.equal(store.getResult('web', 'mem'), null, 'known absent when read');
    assert.equal(store.getHistory('web', 'mem'), null);
    assert.deepEqual(store.getEvent('web', 'disk'), { action: 'create', v: 1 });
    assert.deepEqual(store.getResult('web', 'cpu')?.lastOk, 10, 'a key the batch did not name is read from the database');
  });
  assert.deepEqual(store.getClient('web'), { name: 'web', v: 2 });
  assert.deepEqual(store.getResult('web', 'mem')?.lastOk, 20);
  assert.deepEqual(store.getEvent('web', 'disk'), { action: 'create', v: 2 });
});

test('in a group commit’s first run, writes wait in the batch, answer its reads, and are all sent at COMMIT', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { store, other } = servers;
  store.groupCommit(
    () => {
      store.lockResults([
        ['web', 'disk'],
        ['db', 'disk'],
      ]);
      store.putClient({ name: 'web', v: 3 });
      store.putClient({ name: 'db', v: 1 });
      store.putResult('web', { name: 'disk', status: 0 }, [{ status: 0, executed: 30 }], 30);
      store.putEvent('db', 'disk', { action: 'create', v: 9 });
      assert.equal(store.deleteEvent('web', 'disk'), true, 'it was there');
      assert.equal(store.deleteEvent('web', 'disk'), false, 'gone in the batch');
      assert.equal(sentTo(store, 'clients') + sentTo(store, 'results') + sentTo(store, 'events'), 0, 'nothing sent yet');
      assert.deepEqual(store.getClient('db'), { name: 'db', v: 1 });
      assert.deepEqual(store.getResult('web', 'disk')?.lastOk, 30);
      assert.equal(store.getEvent('web', 'disk'), null);
      assert.deepEqual(store.getEvent('db', 'disk'), { action: 'create', v: 9 });
    },
    () => assert.fail('no write failed: no second run'),
  );
  assert.deepEqual(
    other.listClients().map((c) => c.v),
    [1, 3],
  );
  assert.equal(other.getResult('web', 'disk')?.lastOk, 30);
  assert.equal(other.getEvent('web', 'disk'), null);
  assert.deepEqual(other.getEvent('db', 'disk'), { action: 'create', v: 9 });
});

test('a delete the batch does not keep sends its pending writes and drops it: later reads are the database’s', async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { store, other } = servers;
  store.groupCommit(
    () => {
      store.lockResults([
        ['web', 'disk'],
        ['web', 'cpu'],
      ]);
      store.putResult('web', { name: 'disk', status: 2 }, [], null);
      other.putResult('web', { name: 'cpu', status: 2 }, [], null);
      assert.equal(store.getResult('web', 'cpu')?.check.status, 0, 'from the batch');
      assert.equal(store.deleteResult('web', 'nothing'), false);
      assert.equal(sentTo(store, 'results'), 1, 'the pending write went first');
      assert.equal(store.getResult('web', 'cpu')?.check.status, 2, 'from the database');
      assert.equal(store.getResult('web', 'disk')?.check.status, 2);
    },
    () => assert.fail('no second run'),
  );
  assert.equal(other.getResult('web', 'disk')?.check.status, 2);
});
