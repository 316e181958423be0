// Datastore reads over 100 ms and log syncs over 1 s are warnings. Thresholds of 0 provoke both without timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresFor } from '../servers/postgres.js';

const files = {
  'conf.d/client.json': { client: { name: 'watch-host', address: '127.0.0.1', subscriptions: [] } },
  'conf.d/checkbridge.json': { checkbridge: { datastore_warnings: { read_ms: 0, sync_ms: 0 } } },
};
type Line = Record<string, unknown>;
const isWarning = (kind: string, what: (w: string) => boolean) => (l: Line) =>
  l.level === 40 && l.kind === kind && what(String(l.what)) && l.msg === `datastore ${kind} took over 0 ms`;

test('SQLite: a read over the threshold and the WAL checkpoint (the log sync) are logged as warnings', async (t) => {
  const root = makeTree(files);
  const { daemon, api } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal((await getJson(`${api}/clients`)).status, 200);
  const read = await daemon.waitFor(isWarning('read', (w) => w.startsWith('SELECT')));
  assert.equal(read.engine, 'sqlite');
  assert.equal(typeof read.ms, 'number');
  await daemon.waitFor(isWarning('log sync', (w) => w === 'WAL checkpoint'));
});

test('PostgreSQL: reads and COMMIT (the log sync) over the threshold are logged as warnings', async (t) => {
  const pg = await postgresFor(t);
  if (!pg) return;
  const root = makeTree(files);
  const { daemon, api } = await startInstance(root, [], { CHECKBRIDGE_STORE_DSN: pg.url() });
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal((await getJson(`${api}/clients`)).status, 200);
  assert.equal((await daemon.waitFor(isWarning('read', (w) => w.startsWith('SELECT')))).engine, 'postgres');
  await daemon.waitFor(isWarning('log sync', (w) => w === 'COMMIT'));
});
