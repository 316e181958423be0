import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';

test('an array on the client socket: a refused result fails only itself, its neighbours are stored in order, the answer is invalid', async (t) => {
  const client = { name: 'array-host', address: '127.0.0.1', subscriptions: [] };
  // The local client is the one entity allowed: a result for a new proxy entity is refused.
  const { socket, api } = await instanceFor(t, { 'conf.d/client.json': { client, checkbridge: { entity_limit: 1 } } });
  const results = [
    { name: 'before', output: 'x', status: 1 },
    { name: 'refused', output: 'x', status: 1, source: 'new-proxy' },
    { name: 'after', output: 'y1', status: 2 },
    { name: 'after', output: 'y2', status: 0 },
    { name: 'after', output: 'y3', status: 2 },
  ];
  assert.equal(await tcpExchange(socket, JSON.stringify(results)), 'invalid');
  assert.equal((await getJson(`${api}/results/array-host/before`)).status, 200);
  const after = await getJson(`${api}/results/array-host/after`);
  assert.equal(after.status, 200, 'the result after the refused one is stored');
  // Submitted together, processed in order: the last is the result, the history has all three.
  assert.equal(after.body.check.output, 'y3');
  const history = await getJson(`${api}/clients/array-host/history`);
  assert.deepEqual((history.body as { check: string; history: number[] }[]).find((h) => h.check === 'after')?.history, [2, 0, 2]);
  assert.equal((await getJson(`${api}/results/new-proxy/refused`)).status, 404);
});
