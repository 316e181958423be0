// The embedded datastore's quota: past it, /health raises an alarm, growing writes fail clearly, reads go on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { StateStore } from '../../src/store/index.js';
import { DEFAULT_STORE_QUOTA } from '../../src/store/sqlite/quota.js';

test('the default quota is 4 GB', () => {
  const store = StateStore.open(':memory:');
  assert.equal(store.quotaBytes, 4 * 1024 ** 3);
  assert.equal(DEFAULT_STORE_QUOTA, 4 * 1024 ** 3);
  assert.equal(store.sqlite!.pragma('max_page_count', { simple: true }), (4 * 1024 ** 3) / (store.sqlite!.pragma('page_size', { simple: true }) as number));
  assert.equal(store.alarm(), null);
  store.close();
});

test('a small checkbridge.store_quota: results refused with a clear error once it is reached, alarm in /health, reads still served', async (t) => {
  const { v2, api, socket, daemon } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'quota-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checkbridge.json': { checkbridge: { store_quota: 393216 } },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const before = await getJson(`${v2}/health`);
  assert.equal(before.body.Alarms, null);
  const big = 'x'.repeat(16_000);
  let accepted = 0;
  let refused = false;
  for (let i = 0; i < 100 && !refused; i++) {
    const answer = await tcpExchange(socket, JSON.stringify({ name: `check_${i}`, output: big, status: 1 }));
    if (answer === 'ok') accepted++;
    else refused = true;
  }
  assert.ok(refused, 'a result was refused');
  assert.ok(accepted > 0, 'results were accepted until the quota');
  const line = await daemon.waitFor((l) => /maximum size of 393216 bytes/.test(JSON.stringify(l)));
  assert.match(JSON.stringify(line), /embedded datastore is over its quota/);

  const health = await getJson(`${v2}/health`);
  assert.equal(health.status, 200);
  assert.match(health.body.Alarms, /^NOSPACE: the embedded datastore uses \d+ of its 393216 bytes/);

  // Reads keep working, on both APIs.
  const results = await getJson(`${api}/results/quota-host`);
  assert.equal(results.status, 200);
  assert.ok(results.body.length >= accepted);
  const events = await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', auth);
  assert.equal(events.status, 200);
  assert.ok(events.body.length >= accepted);
  // A v2 write that would grow the store: 507 with the reason.
  const handler = await call(`${v2}/api/core/v2/namespaces/default/handlers/huge`, 'PUT', auth, { type: 'pipe', command: 'y'.repeat(200_000) });
  assert.equal(handler.status, 507);
  assert.match(handler.body.message, /over its quota.*393216 bytes/);
});
