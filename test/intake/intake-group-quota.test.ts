// A group commit ended by one result over the quota: the results that fit commit all the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';

test('an array of results on the client socket: one over the quota is refused alone, the others are stored', async (t) => {
  const { api, socket } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'quota-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checkbridge.json': { checkbridge: { store_quota: 393216 } },
  });
  let refused = false;
  let filled = 0;
  for (; filled < 100 && !refused; filled++)
    refused = (await tcpExchange(socket, JSON.stringify({ name: `filler_${filled}`, output: 'x'.repeat(16_000), status: 1 }))) !== 'ok';
  assert.ok(refused, 'the quota was reached');
  // Room for small results again, not for a big one.
  // Every filler before the refused one was stored (how many fit depends on the store's page layout).
  assert.ok(filled >= 2, 'at least one filler was stored');
  for (let i = 0; i < filled - 1; i++) assert.equal((await fetch(`${api}/results/quota-host/filler_${i}`, { method: 'DELETE' })).status, 204);

  // One array: one group commit.
  const answer = await tcpExchange(
    socket,
    JSON.stringify([
      { name: 'small_a', output: 'a', status: 0 },
      { name: 'huge', output: 'y'.repeat(200_000), status: 2 },
      { name: 'small_b', output: 'b', status: 1 },
    ]),
  );
  assert.notEqual(answer, 'ok', 'not every result was stored');
  assert.equal((await getJson(`${api}/results/quota-host/huge`)).status, 404);
  for (const [name, output] of [
    ['small_a', 'a'],
    ['small_b', 'b'],
  ]) {
    const stored = await getJson(`${api}/results/quota-host/${name}`);
    assert.deepEqual([stored.status, stored.body.check?.output], [200, output], name);
  }
});
