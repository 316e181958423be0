// A v2 row written outside any group commit holds the row's lock, as group commits take it, and waits for another
// server's hold of it a moment only, then answers the store busy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { holdRowLock, tryRowLock } from '../../helpers/row-lock.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('locked');

test('postgres: an entity written outside a group commit holds the row’s lock: another server’s commit cannot take it meanwhile', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  let answer = '';
  // The write's own transaction, as the API's would be, held open while another session tries the row's lock.
  store.transaction(() => {
    store.resources.putEntity('default', 'r', { entity_class: 'proxy', metadata: { name: 'r', namespace: 'default' } });
    // Its lock and write travel with the transaction's next statement.
    assert.equal(store.resources.getEntity('default', 'r')?.metadata?.name, 'r');
    answer = tryRowLock(dsn, 'default', 'r');
  });
  assert.equal(answer, 'waited');
});

test('postgres: an entity written while another server holds the row’s lock waits a moment, then answers the store busy', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  // Another server's blocking group commit, holding the row's lock until it is stopped.
  const child = await holdRowLock(dsn, 'default', 'r');
  t.after(() => child.kill());
  const entity = { entity_class: 'proxy', metadata: { name: 'r', namespace: 'default' } };
  assert.throws(
    () => store.resources.putEntity('default', 'r', entity),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_UNAVAILABLE' && /another server is writing this row/.test(error.message),
  );
  child.kill();
  await new Promise((resolve) => child.once('exit', resolve));
  // Released: the write goes through.
  for (let i = 0; i < 100 && store.resources.getEntity('default', 'r') === null; i++) {
    try {
      store.resources.putEntity('default', 'r', entity);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  assert.equal(store.resources.getEntity('default', 'r')?.metadata?.name, 'r');
});
