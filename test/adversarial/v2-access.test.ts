import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { rawRequest, pathVariants } from '../helpers/raw-http.js';

const NS = '/api/core/v2/namespaces/default';
const event = (entity: string, check: string) => ({
  entity: { metadata: { name: entity, namespace: 'default' }, entity_class: 'proxy' },
  check: { metadata: { name: check, namespace: 'default' }, status: 1, interval: 60, output: 'x' },
});
const RESOURCES = ['handlers', 'pipelines', 'mutators', 'checks', 'hooks', 'filters', 'entities', 'silenced', 'roles', 'rolebindings'];
const OWN_BINDING = { subjects: [{ type: 'User', name: 'intruder' }], role_ref: { type: 'ClusterRole', name: 'cluster-admin' } };

/** Every v2 route, with a body where it takes one: the matrix below tries each through every spelling. */
function routes(): { method: string; path: string; body?: unknown }[] {
  const list: { method: string; path: string; body?: unknown }[] = [
    { method: 'GET', path: '/api/core/v2/events' },
    { method: 'GET', path: `${NS}/events` },
    { method: 'GET', path: `${NS}/events/victim` },
    { method: 'GET', path: `${NS}/events/victim/kept` },
    { method: 'HEAD', path: `${NS}/events/victim/kept` },
    { method: 'DELETE', path: `${NS}/events/victim/kept` },
    { method: 'PUT', path: `${NS}/events/victim/intruder`, body: event('victim', 'intruder') },
    { method: 'POST', path: `${NS}/events/victim/intruder`, body: event('victim', 'intruder') },
    { method: 'POST', path: `${NS}/events`, body: event('victim', 'intruder') },
    { method: 'GET', path: '/api/core/v2/namespaces' },
    { method: 'GET', path: '/api/core/v2/namespaces/default' },
    { method: 'PUT', path: '/api/core/v2/namespaces/intruder', body: { name: 'intruder' } },
    { method: 'DELETE', path: '/api/core/v2/namespaces/default' },
    { method: 'GET', path: '/api/core/v2/apikeys' },
    { method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'admin' } },
    { method: 'POST', path: '/api/core/v2/users', body: { username: 'intruder', password: 'intruder-pass', groups: ['cluster-admins'] } },
    { method: 'GET', path: '/api/core/v2/users/admin' },
    { method: 'PUT', path: '/api/core/v2/users/admin/password', body: { password: 'taken-over-1' } },
    { method: 'GET', path: '/api/core/v2/clusterroles' },
    { method: 'GET', path: '/api/core/v2/clusterroles/cluster-admin' },
    { method: 'PUT', path: '/api/core/v2/clusterroles/view', body: { rules: [{ verbs: ['*'], resources: ['*'] }] } },
    { method: 'DELETE', path: '/api/core/v2/clusterroles/cluster-admin' },
    { method: 'GET', path: '/api/core/v2/clusterrolebindings' },
    { method: 'POST', path: '/api/core/v2/clusterrolebindings', body: { metadata: { name: 'intruder' }, ...OWN_BINDING } },
    { method: 'PUT', path: '/api/core/v2/clusterrolebindings/intruder', body: OWN_BINDING },
    { method: 'DELETE', path: '/api/core/v2/clusterrolebindings/cluster-admin' },
    { method: 'PUT', path: `${NS}/rolebindings/intruder`, body: OWN_BINDING },
  ];
  for (const kind of RESOURCES) {
    list.push({ method: 'GET', path: `${NS}/${kind}` }, { method: 'GET', path: `${NS}/${kind}/kept` }, { method: 'DELETE', path: `${NS}/${kind}/kept` });
    list.push({ method: 'PUT', path: `${NS}/${kind}/intruder`, body: { metadata: { name: 'intruder' }, type: 'pipe', command: 'touch /tmp/pwned', entity_class: 'proxy', action: 'allow', expressions: [], check: 'x' } });
    list.push({ method: 'POST', path: `${NS}/${kind}`, body: { metadata: { name: 'intruder' }, type: 'pipe', command: 'touch /tmp/pwned', entity_class: 'proxy', action: 'allow', expressions: [], check: 'x' } });
  }
  return list;
}

test('v2 API: no spelling of any route reaches a handler without credentials, and nothing changes', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'access-host', address: '127.0.0.1', subscriptions: [] } } });
  const token = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'PUT', token, event('victim', 'kept'))).status, 201);
  assert.equal((await call(`${v2}${NS}/handlers/kept`, 'PUT', token, { type: 'pipe', command: 'true' })).status, 201);

  const answered = new Map<number, number>();
  for (const { method, path, body } of routes()) {
    // The plain spelling is refused too: the matrix must not pass because every variant is a 404.
    const plain = await rawRequest(v2, method, path, {}, body);
    assert.equal(plain.status, 401, `${method} ${path} without credentials`);
    for (const target of pathVariants(v2, path)) {
      const reply = await rawRequest(v2, method, target, {}, body);
      answered.set(reply.status, (answered.get(reply.status) ?? 0) + 1);
      assert.ok([400, 401, 404].includes(reply.status), `${method} ${target} without credentials answered ${reply.status}: ${reply.text}`);
    }
  }
  // Both kinds of refusal happen: decoded spellings reach the route's own check (401), unsafe ones are refused (400).
  assert.ok((answered.get(401) ?? 0) > 0 && (answered.get(400) ?? 0) > 0, JSON.stringify([...answered]));

  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'GET', token)).status, 200, 'the event survived');
  assert.equal((await call(`${v2}${NS}/events/victim/intruder`, 'GET', token)).status, 404, 'no event was written');
  assert.equal((await call(`${v2}${NS}/handlers/kept`, 'GET', token)).status, 200, 'the handler survived');
  for (const kind of RESOURCES) assert.equal((await call(`${v2}${NS}/${kind}/intruder`, 'GET', token)).status, 404, `no ${kind} was written`);
  assert.equal((await call(`${v2}/api/core/v2/users/intruder`, 'GET', token)).status, 404, 'no user was created');
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/intruder`, 'GET', token)).status, 404, 'no binding was created');
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/cluster-admin`, 'GET', token)).status, 200, 'the admin binding survived');
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', token)).body.length, 0, 'no key was granted');
  assert.equal((await adminToken(v2)).length > 0, true, 'the admin password is unchanged');
  // The anonymous routes stay anonymous.
  assert.equal((await getJson(`${v2}/health`)).status, 200);
  assert.equal((await rawRequest(v2, 'GET', '/%68ealth')).status, 200);
});

test('v2 API: a non-admin cannot reach admin routes through any spelling', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'access-host', address: '127.0.0.1', subscriptions: [] } } });
  const token = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', token, { username: 'alice', password: 'alice-pass-1', groups: ['dev'] })).status, 201);
  // Alice's group may read and write monitoring resources everywhere (the built-in edit role), nothing cluster-wide.
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/dev-edit`, 'PUT', token, { subjects: [{ type: 'Group', name: 'dev' }], role_ref: { type: 'ClusterRole', name: 'edit' } })).status, 201);
  const aliceKey = `Key ${(await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'alice' })).headers.get('location')!.split('/').pop()}`;
  const adminKeyId = (await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'admin' })).headers.get('location')!.split('/').pop()!;
  const admin = [
    { method: 'GET', path: '/api/core/v2/apikeys' },
    { method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'admin' } },
    { method: 'GET', path: `/api/core/v2/apikeys/${adminKeyId}` },
    { method: 'DELETE', path: `/api/core/v2/apikeys/${adminKeyId}` },
    { method: 'POST', path: '/api/core/v2/users', body: { username: 'mallory', password: 'mallory-pass-1', groups: ['cluster-admins'] } },
    { method: 'PUT', path: '/api/core/v2/users/admin/password', body: { password: 'taken-over-1' } },
    { method: 'GET', path: '/api/core/v2/clusterroles' },
    { method: 'GET', path: '/api/core/v2/clusterroles/cluster-admin' },
    { method: 'PUT', path: '/api/core/v2/clusterroles/view', body: { rules: [{ verbs: ['*'], resources: ['*'] }] } },
    { method: 'DELETE', path: '/api/core/v2/clusterroles/cluster-admin' },
    { method: 'GET', path: '/api/core/v2/clusterrolebindings' },
    { method: 'POST', path: '/api/core/v2/clusterrolebindings', body: { metadata: { name: 'intruder' }, ...OWN_BINDING } },
    { method: 'PUT', path: '/api/core/v2/clusterrolebindings/intruder', body: OWN_BINDING },
    { method: 'DELETE', path: '/api/core/v2/clusterrolebindings/cluster-admin' },
    { method: 'PUT', path: `${NS}/rolebindings/intruder`, body: OWN_BINDING },
  ];
  for (const { method, path, body } of admin) {
    const plain = await rawRequest(v2, method, path, { authorization: aliceKey }, body);
    assert.equal(plain.status, 403, `${method} ${path} as a non-admin: ${plain.text}`);
    assert.equal(JSON.parse(plain.text).code, 4);
    assert.match(JSON.parse(plain.text).message, /^unauthorized to perform action: user "alice" may not \w+ (apikeys|users|clusterroles|clusterrolebindings|rolebindings)/);
    for (const target of pathVariants(v2, path)) {
      const reply = await rawRequest(v2, method, target, { authorization: aliceKey }, body);
      assert.ok([400, 403, 404].includes(reply.status), `${method} ${target} as a non-admin answered ${reply.status}: ${reply.text}`);
    }
  }
  const keys = (await call(`${v2}/api/core/v2/apikeys`, 'GET', token)).body as unknown[];
  assert.equal(keys.length, 2, 'no key was granted or revoked');
  assert.equal((await call(`${v2}/api/core/v2/users/mallory`, 'GET', token)).status, 404);
  assert.equal((await call(`${v2}/api/core/v2/events`, 'GET', `Key ${adminKeyId}`)).status, 200, 'the admin key still works');
  // What a non-admin may do still works through the decoded spelling.
  assert.equal((await rawRequest(v2, 'GET', '/%61pi/core/v2/events', { authorization: aliceKey })).status, 200);
});

test('v2 API: a view user reads every namespaced route and is refused (403) every write and every cluster-wide route, in any spelling', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'access-host', address: '127.0.0.1', subscriptions: [] } } });
  const token = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'PUT', token, event('victim', 'kept'))).status, 201);
  assert.equal((await call(`${v2}${NS}/handlers/kept`, 'PUT', token, { type: 'pipe', command: 'true' })).status, 201);
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', token, { username: 'vera', password: 'vera-pass-1', groups: ['viewers'] })).status, 201);
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/viewers`, 'PUT', token, { subjects: [{ type: 'Group', name: 'viewers' }], role_ref: { type: 'ClusterRole', name: 'view' } })).status, 201);
  const vera = `Key ${(await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'vera' })).headers.get('location')!.split('/').pop()}`;
  // The view role reads monitoring resources and namespaces: not keys, users, roles or bindings.
  const unreadable = /\/(apikeys|users|clusterroles|clusterrolebindings|roles|rolebindings)(\/|$)/;
  for (const { method, path, body } of routes()) {
    const reads = (method === 'GET' || method === 'HEAD') && !unreadable.test(path);
    const plain = await rawRequest(v2, method, path, { authorization: vera }, body);
    if (reads) {
      assert.ok([200, 404].includes(plain.status), `${method} ${path} as a viewer answered ${plain.status}: ${plain.text}`);
      continue;
    }
    assert.equal(plain.status, 403, `${method} ${path} as a viewer: ${plain.text}`);
    assert.equal(JSON.parse(plain.text).code, 4);
    assert.match(JSON.parse(plain.text).message, /^unauthorized to perform action: user "vera" may not /);
    for (const target of pathVariants(v2, path)) {
      const reply = await rawRequest(v2, method, target, { authorization: vera }, body);
      assert.ok([400, 403, 404].includes(reply.status), `${method} ${target} as a viewer answered ${reply.status}: ${reply.text}`);
    }
  }
  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'GET', token)).status, 200, 'the event survived');
  assert.equal((await call(`${v2}${NS}/events/victim/intruder`, 'GET', token)).status, 404, 'no event was written');
  for (const kind of RESOURCES) assert.equal((await call(`${v2}${NS}/${kind}/intruder`, 'GET', token)).status, 404, `no ${kind} was written`);
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/intruder`, 'GET', token)).status, 404, 'no binding was written');
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/cluster-admin`, 'GET', token)).status, 200, 'the admin binding survived');
  assert.deepEqual((await call(`${v2}/api/core/v2/clusterroles/view`, 'GET', token)).body.rules[0].verbs, ['get', 'list'], 'the view role is unchanged');
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', token)).body.length, 1, 'no key was granted');
  assert.equal((await adminToken(v2)).length > 0, true, 'the admin password is unchanged');
});
