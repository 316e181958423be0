import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor, postJson, eventually, getJson } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const NS = '/api/core/v2/namespaces/default';
const LICENSE = /no license for more entities/;

test('entity limit: past 100 entities every door refuses a new one, existing ones keep working, the setting raises it', async (t) => {
  const client = { name: 'limit-host', address: '127.0.0.1', subscriptions: [] };
  const { v2, api, agent, socket, daemon, root } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const auth = `Bearer ${await adminToken(v2)}`;
  await eventually(
    () => call(`${v2}${NS}/entities/limit-host`, 'GET', auth),
    (r) => r.status === 200,
  );
  // The local client is the first entity; 99 proxies make 100.
  for (let i = 1; i < 100; i++) assert.equal((await call(`${v2}${NS}/entities/p${i}`, 'PUT', auth, { entity_class: 'proxy' })).status, 200, `entity ${i + 1}`);

  const entity = await call(`${v2}${NS}/entities/p100`, 'PUT', auth, { entity_class: 'proxy' });
  assert.equal(entity.status, 402);
  assert.match(entity.body.message, LICENSE);
  const event = { entity: { metadata: { name: 'p100' }, entity_class: 'proxy' }, check: { metadata: { name: 'c' }, status: 1, interval: 60 } };
  assert.equal((await call(`${v2}${NS}/events/p100/c`, 'PUT', auth, event)).status, 402);
  const legacy = await postJson(`${api}/results`, { name: 'c', output: 'x', status: 1, source: 'p100' });
  assert.equal(legacy.status, 402);
  assert.match(legacy.body.error, LICENSE);
  const viaAgent = await postJson(`${agent}/results`, { name: 'c', output: 'x', status: 1, source: 'p100' });
  assert.equal(viaAgent.status, 402);
  for (let i = 0; i < 3; i++) assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'c', output: 'x', status: 1, source: 'p100' })), 'invalid');
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'c', output: 'x', status: 1, source: 'p200' })), 'invalid');
  await daemon.waitFor((l) => LICENSE.test(String(l.msg)) && l.client === 'p200', 5000);
  const refusals = daemon.logs.filter((l) => LICENSE.test(String(l.msg)) || LICENSE.test(JSON.stringify(l.err ?? '')));
  assert.deepEqual(
    refusals.map((l) => l.client),
    ['p100', 'p200'],
    'one line per client name, whatever the door and however often',
  );
  assert.match(String(refusals[0]!.msg), /limit of 100.*checkbridge\.entity_limit/);

  // Existing entities keep being monitored through every door.
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'c', output: 'x', status: 2, source: 'p1' })), 'ok');
  assert.equal((await postJson(`${api}/results`, { name: 'd', output: 'x', status: 1, source: 'p2' })).status, 202);
  assert.equal((await call(`${v2}${NS}/events/p3/c`, 'PUT', auth, { ...event, entity: { metadata: { name: 'p3' }, entity_class: 'proxy' } })).status, 201);
  assert.equal((await getJson(`${api}/events/p1/c`)).status, 200);

  // The operator raises the limit (0: none); the change applies live.
  writeFileSync(join(root, 'conf.d', 'client.json'), JSON.stringify({ client, checkbridge: { entity_limit: 0 } }));
  await eventually(
    () => call(`${v2}${NS}/entities/p100`, 'PUT', auth, { entity_class: 'proxy' }),
    (r) => r.status === 200,
  );
  assert.equal((await postJson(`${api}/results`, { name: 'c', output: 'x', status: 1, source: 'p101' })).status, 202);
});
