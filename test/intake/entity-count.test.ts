import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, postJson, eventually, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const NS = '/api/core/v2/namespaces/default';
const LICENSE = /no license for more entities/;

test('entity limit: counts exactly what the entity list shows, legacy POST /clients included; the v2 402 is code 6', async (t) => {
  const client = { name: 'local', address: '127.0.0.1', subscriptions: [] };
  const { v2, api } = await instanceFor(t, { 'conf.d/client.json': { client, checkbridge: { entity_limit: 3 } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const listed = async () => ((await call(`${v2}${NS}/entities`, 'GET', auth)).body as { metadata: { name: string } }[]).map((e) => e.metadata.name);
  await eventually(listed, (names) => names.includes('local'));
  assert.equal((await call(`${v2}${NS}/entities/p1`, 'PUT', auth, { entity_class: 'proxy' })).status, 200);

  // A client registered through the legacy API is an entity of the list, and the third of three.
  assert.equal((await postJson(`${api}/clients`, { name: 'legacy-1', address: 'x', subscriptions: ['a'] })).status, 201);
  assert.deepEqual(await listed(), ['legacy-1', 'local', 'p1']);
  const shown = await call(`${v2}${NS}/entities/legacy-1`, 'GET', auth);
  assert.deepEqual([shown.status, shown.body.entity_class, shown.body.subscriptions], [200, 'proxy', ['a', 'entity:legacy-1']]);

  // Three listed, limit three: every door refuses a fourth; the v2 body carries Sensu Go's PaymentRequired code.
  const refused = await call(`${v2}${NS}/entities/p2`, 'PUT', auth, { entity_class: 'proxy' });
  assert.equal(refused.status, 402);
  assert.equal(refused.body.code, 6);
  assert.match(refused.body.message, LICENSE);
  const legacy = await postJson(`${api}/clients`, { name: 'legacy-2', address: 'x', subscriptions: [] });
  assert.equal(legacy.status, 402);
  assert.match(legacy.body.error, LICENSE);
  assert.equal((await getJson(`${api}/clients/legacy-2`)).status, 404, 'nothing stored');
  assert.equal((await postJson(`${api}/clients`, { name: 'legacy-1', address: 'y', subscriptions: ['a'] })).status, 201, 'an existing client is updated');

  // The listed client is removed by the legacy API (the v2 DELETE says so); then a new entity fits.
  const remove = await call(`${v2}${NS}/entities/legacy-1`, 'DELETE', auth);
  assert.equal(remove.status, 409);
  assert.match(remove.body.message, /legacy client of that name: remove it with DELETE \/clients\/legacy-1/);
  assert.equal((await getJson(`${api}/clients/legacy-1`, { method: 'DELETE' })).status, 202);
  assert.deepEqual(await listed(), ['local', 'p1']);
  assert.equal((await call(`${v2}${NS}/entities/p2`, 'PUT', auth, { entity_class: 'proxy' })).status, 200);
});
