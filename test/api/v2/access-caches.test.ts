import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';

// The event PUT holds what it read of namespaces and grants between writes: each write below must apply to the very next request.
const event = (entity: string, check: string) => ({
  entity: { entity_class: 'proxy', metadata: { name: entity } },
  check: { metadata: { name: check }, interval: 60, status: 0, output: 'ok' },
});
const putEvent = (core: string, auth: string, ns: string, entity: string, check: string) =>
  call(`${core}/namespaces/${ns}/events/${entity}/${check}`, 'PUT', auth, event(entity, check)).then((r) => r.status);

test('event PUT: a namespace created or deleted applies to the next request', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'cache-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;

  assert.equal(await putEvent(core, admin, 'late', 'h1', 'c1'), 404);
  assert.equal((await call(`${core}/namespaces/late`, 'PUT', admin, { name: 'late' })).status, 201);
  assert.equal(await putEvent(core, admin, 'late', 'h1', 'c1'), 201);

  assert.equal((await call(`${core}/namespaces/gone`, 'PUT', admin, { name: 'gone' })).status, 201);
  const check = { metadata: { name: 'c1' }, command: 'true', interval: 60, subscriptions: ['x'] };
  assert.equal((await call(`${core}/namespaces/gone/checks/c1`, 'PUT', admin, check)).status, 201);
  assert.equal((await call(`${core}/namespaces/gone/checks/c1`, 'DELETE', admin)).status, 204);
  assert.equal((await call(`${core}/namespaces/gone`, 'DELETE', admin)).status, 204);
  assert.equal(await putEvent(core, admin, 'gone', 'h1', 'c1'), 404);
});

test('event PUT: a grant of every name or of one name, widened, narrowed and unbound, applies to the next request', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'cache-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  assert.equal((await call(`${core}/users`, 'POST', admin, { username: 'nina', password: 'nina-pass-1', groups: ['putters'] })).status, 201);
  const basic = 'Basic ' + Buffer.from('nina:nina-pass-1').toString('base64');
  const nina = `Bearer ${(await getJson(`${v2}/auth`, { headers: { authorization: basic } })).body.access_token}`;
  const role = (names: string[]) =>
    call(`${core}/namespaces/default/roles/putter`, 'PUT', admin, { rules: [{ verbs: ['update'], resources: ['events'], resource_names: names }] });

  assert.equal((await role(['host-a/check-1'])).status, 201);
  const binding = { subjects: [{ type: 'User', name: 'nina' }], role_ref: { type: 'Role', name: 'putter' } };
  assert.equal((await call(`${core}/namespaces/default/rolebindings/putter`, 'PUT', admin, binding)).status, 201);
  assert.equal(await putEvent(core, nina, 'default', 'host-a', 'check-1'), 201);
  assert.equal(await putEvent(core, nina, 'default', 'host-b', 'check-1'), 403);

  assert.ok([200, 201].includes((await role([])).status));
  assert.equal(await putEvent(core, nina, 'default', 'host-b', 'check-1'), 201);
  assert.equal(await putEvent(core, nina, 'default', 'host-c', 'check-1'), 201);

  assert.ok([200, 201].includes((await role(['host-a/check-1'])).status));
  assert.equal(await putEvent(core, nina, 'default', 'host-b', 'check-1'), 403);
  assert.equal(await putEvent(core, nina, 'default', 'host-a', 'check-1'), 201);

  assert.equal((await call(`${core}/namespaces/default/rolebindings/putter`, 'DELETE', admin)).status, 204);
  assert.equal(await putEvent(core, nina, 'default', 'host-a', 'check-1'), 403);
});
