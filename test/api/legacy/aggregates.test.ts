import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson as get, postJson as post } from '../../helpers/instance.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { tcpExchange } from '../../helpers/net.js';

test('aggregates: results from several clients summarised by severity, per client, per check, by output; delete', async (t) => {
  const root = makeTree({
    'conf.d/client.json': { client: { name: 'local', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checks.json': {
      checks: {
        web: { command: 'true', interval: 60, subscribers: ['none'], aggregate: true },
        db: { command: 'true', interval: 60, subscribers: ['none'], aggregates: ['TIER', 'db_group'] },
      },
    },
  });
  const { daemon, api, socket } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const result = (source: string, name: string, status: number, output: string) => post(`${api}/results`, { name, source, status, output });
  await result('web-1', 'web', 0, 'ok');
  await result('web-2', 'web', 2, 'down');
  await result('web-3', 'web', 2, 'down');
  await result('web-4', 'web', 1, 'slow');
  await result('db-1', 'db', 3, 'weird');

  assert.deepEqual(
    ((await get(`${api}/aggregates`)).body as { name: string }[]).map((a) => a.name),
    ['TIER', 'db_group', 'web'],
  );
  assert.deepEqual((await get(`${api}/aggregates/web`)).body, {
    clients: 4,
    checks: 1,
    results: { ok: 1, warning: 1, critical: 2, unknown: 0, total: 4, stale: 0 },
  });
  assert.deepEqual((await get(`${api}/aggregates/TIER`)).body.results.unknown, 1);
  assert.deepEqual(
    (await get(`${api}/aggregates/web/clients`)).body,
    ['web-1', 'web-2', 'web-3', 'web-4'].map((name) => ({ name, checks: ['web'] })),
  );
  assert.deepEqual((await get(`${api}/aggregates/web/checks`)).body, [{ name: 'web', clients: ['web-1', 'web-2', 'web-3', 'web-4'] }]);
  assert.deepEqual((await get(`${api}/aggregates/web/results/critical`)).body, [
    { check: 'web', summary: [{ output: 'down', total: 2, clients: ['web-2', 'web-3'] }] },
  ]);
  assert.equal((await get(`${api}/aggregates/web/results/bogus`)).status, 400);
  assert.equal((await get(`${api}/aggregates/nope/results/ok`)).status, 404);
  assert.equal((await get(`${api}/aggregates/nope`)).status, 404);
  assert.equal((await get(`${api}/aggregates/nope/clients`)).status, 404);

  // max_age: a result executed an hour ago is stale (the socket keeps `executed`; the API sets it to now).
  const executed = Math.floor(Date.now() / 1000) - 3600;
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'web', source: 'web-5', status: 0, output: 'old', executed })), 'ok');
  const aged = (await get(`${api}/aggregates/web?max_age=60`)).body;
  assert.equal(aged.results.stale, 1);
  assert.equal(aged.results.total, 4);
  assert.equal((await get(`${api}/aggregates/web/results/ok?max_age=60`)).body[0].summary.length, 1);

  // A deleted result leaves the aggregate on the next summary, though it still counted as a client then.
  assert.equal((await fetch(`${api}/results/web-1/web`, { method: 'DELETE' })).status, 204);
  assert.equal((await get(`${api}/aggregates/web`)).body.clients, 5);
  assert.equal((await get(`${api}/aggregates/web`)).body.clients, 4);

  assert.equal((await fetch(`${api}/aggregates/TIER`, { method: 'DELETE' })).status, 204);
  assert.equal((await fetch(`${api}/aggregates/TIER`, { method: 'DELETE' })).status, 404);
  assert.equal((await get(`${api}/aggregates/TIER`)).status, 404);
});
