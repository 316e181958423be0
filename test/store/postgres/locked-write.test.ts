// A v2 row written outside any group commit holds the row's lock, as group commits take it, and waits for another
// server's hold of it a moment only, then answers the store busy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { StateStore } from '../../../src/store/index.js';
import { v2Key } from '../../../src/store/postgres/batch-rows.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { ROOT } from '../../helpers/paths.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('locked');

test('postgres: an entity written outside a group commit holds the row’s lock: another server’s commit cannot take it meanwhile', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  const tryLock = `
    const pg = require('pg');
    const c = new pg.Client(${JSON.stringify(dsn)});
    c.connect()
      .then(() => c.query("BEGIN; SET LOCAL lock_timeout = '500ms'; SELECT pg_advisory_xact_lock(hashtextextended($$v2/${v2Key('default', 'r')}$$, 0))"))
      .then(() => process.stdout.write('granted'), (e) => process.stdout.write(e.code === '55P03' ? 'waited' : String(e.message)))
      .finally(() => c.end());`;
  let answer = '';
  // The write's own transaction, as the API's would be, held open while another session tries the row's lock.
  store.transaction(() => {
    store.resources.putEntity('default', 'r', { entity_class: 'proxy', metadata: { name: 'r', namespace: 'default' } });
    // Its lock and write travel with the transaction's next statement.
    assert.equal(store.resources.getEntity('default', 'r')?.metadata?.name, 'r');
    answer = execFileSync(process.execPath, ['-e', tryLock], { encoding: 'utf8', cwd: ROOT });
  });
  assert.equal(answer, 'waited');
});

test('postgres: an entity written while another server holds the row’s lock waits a moment, then answers the store busy', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  // Another server's blocking group commit, holding the row's lock until it is stopped.
  const hold = `
    const pg = require('pg');
    const c = new pg.Client(${JSON.stringify(dsn)});
    c.connect()
      .then(() => c.query("BEGIN; SELECT pg_advisory_xact_lock(hashtextextended($$v2/${v2Key('default', 'r')}$$, 0))"))
      .then(() => process.stdout.write('locked'));`;
  const child = spawn(process.execPath, ['-e', hold], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill());
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve()));
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
