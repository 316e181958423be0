// Two `checkbridge run` processes on one PostgreSQL store: one state, seen through either server at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, getJson, postJson, eventually, adminBasic, type Instance } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { keepEachCommand, keptEvents } from '../helpers/kept-events.js';
import { call } from '../api/v2/v2-helpers.js';
import { postgresFor } from '../servers/postgres.js';

const client = { name: 'shared-host', address: '127.0.0.1', subscriptions: ['web'] };

test('two servers on one PostgreSQL store: results, events, silences and API keys are one state; concurrent results lose no history', async (t) => {
  const server = await postgresFor(t);
  if (!server) return;
  await server.query('CREATE DATABASE shared');
  const dsn = server.url('postgres', 'shared');
  const root = makeTree({});
  const handled = join(root, 'handled');
  const config = { client, handlers: { record: { type: 'pipe', command: keepEachCommand(handled) } } };
  const dirs = ['a', 'b'].map((name) => {
    const dir = join(root, name);
    writeTree(dir, { 'conf.d/config.json': config });
    return dir;
  });
  // Both start at once: the first start of a store migrates it under a lock, the other waits for it.
  const [a, b] = (await Promise.all(dirs.map((dir) => startInstance(dir, ['--store-dsn', dsn])))) as [Instance, Instance];
  t.after(async () => {
    await Promise.all([a.daemon.stop('SIGKILL'), b.daemon.stop('SIGKILL')]);
    removeTree(root);
  });
  const storeLine = await a.daemon.waitFor((l) => l.engine === 'postgres');
  assert.match(String(storeLine.store), /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/shared$/);

  // A result taken by A is visible through B's API at once.
  assert.equal(await tcpExchange(a.socket, JSON.stringify({ name: 'disk', output: 'disk full', status: 2, executed: 100 })), 'ok');
  const results = await getJson(`${b.api}/results/shared-host`);
  assert.deepEqual(
    results.body.map((r: { check: { name: string } }) => r.check.name),
    ['disk'],
  );
  const event = await getJson(`${b.api}/events/shared-host/disk`);
  assert.equal(event.status, 200);
  assert.equal(event.body.check.output, 'disk full');

  // A silence made on B applies to A's next result: the event is silenced and its handler does not run.
  assert.equal((await postJson(`${b.api}/silenced`, { subscription: 'web', check: 'app' })).status, 201);
  assert.equal(await tcpExchange(a.socket, JSON.stringify({ name: 'app', output: 'app down', status: 2, handlers: ['record'] })), 'ok');
  const silenced = await getJson(`${a.api}/events/shared-host/app`);
  assert.equal(silenced.body.silenced, true);
  assert.deepEqual(silenced.body.silenced_by, ['web:app']);
  assert.equal(await tcpExchange(a.socket, JSON.stringify({ name: 'db', output: 'db down', status: 2, handlers: ['record'] })), 'ok');
  const lines = await eventually(
    async () => keptEvents(handled),
    (l) => l.length >= 1,
  );
  assert.deepEqual(
    lines.map((event) => event.check.name),
    ['db'],
    'the silenced event was not handled',
  );

  // An API key made on A works on B; deleted on A, it fails on B once B heard the deletion's notification (its cache
  // of credentials drops the key then): within the 5 s a cache is trusted without an answered probe.
  const token = `Bearer ${(await getJson(`${a.v2}/auth`, { headers: adminBasic })).body.access_token}`;
  const grant = await call(`${a.v2}/api/core/v2/apikeys`, 'POST', token, { username: 'admin' });
  assert.equal(grant.status, 201);
  const location = grant.headers.get('location')!;
  const key = `Key ${location.split('/').pop()}`;
  assert.equal((await call(`${b.v2}/api/core/v2/namespaces/default/events`, 'GET', key)).status, 200);
  assert.equal((await call(`${b.v2}/api/core/v2/namespaces/default/events`, 'GET', key)).status, 200);
  assert.equal((await call(`${a.v2}${location}`, 'DELETE', token)).status, 204);
  const revoked = await eventually(
    async () => (await call(`${b.v2}/api/core/v2/namespaces/default/events`, 'GET', key)).status,
    (status) => status === 401,
    5_000,
  );
  assert.equal(revoked, 401);

  // Twenty results for one client/check, ten through each server at once: every one is in the history.
  const sends = Array.from({ length: 20 }, (_, i) =>
    tcpExchange((i % 2 ? b : a).socket, JSON.stringify({ name: 'flap', output: `run ${i}`, status: 1 + (i % 2), executed: 1000 + i })),
  );
  assert.deepEqual(await Promise.all(sends), Array(20).fill('ok'));
  // The history ring keeps 21: all twenty fit.
  const history = (await getJson(`${b.api}/events/shared-host/flap`)).body.check.history as string[];
  assert.equal(history.length, 20, JSON.stringify(history));
  const v2Event = (await call(`${a.v2}/api/core/v2/namespaces/default/events/shared-host/flap`, 'GET', token)).body;
  assert.deepEqual(
    v2Event.check.history.map((h: { executed: number }) => h.executed).sort(),
    Array.from({ length: 20 }, (_, i) => 1000 + i),
  );
});
