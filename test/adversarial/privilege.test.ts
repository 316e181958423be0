import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor, getJson, eventually } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const user = async (v2: string, admin: string, name: string, role: string, namespace: string) => {
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: name, password: `${name}-pass-1` })).status, 201);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/${namespace}`, 'PUT', admin, {})).status, 201);
  assert.equal(
    (
      await call(`${v2}/api/core/v2/namespaces/${namespace}/rolebindings/${name}-${role}`, 'PUT', admin, {
        subjects: [{ type: 'User', name }],
        role_ref: { type: 'ClusterRole', name: role },
      })
    ).status,
    201,
  );
  return `Bearer ${(await getJson(`${v2}/auth`, { headers: basic(name, `${name}-pass-1`) })).body.access_token}`;
};

test('RBAC: nobody grants what they do not hold (no escalation through roles or bindings)', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'priv-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const dan = await user(v2, admin, 'dan', 'admin', 'team-c');
  const ns = `${v2}/api/core/v2/namespaces/team-c`;
  const bindTo = (name: string) => ({ subjects: [{ type: 'User', name: 'dan' }], role_ref: { type: 'ClusterRole', name } });
  for (const [path, body] of [
    ['rolebindings/up', bindTo('cluster-admin')],
    ['roles/everything', { rules: [{ verbs: ['*'], resources: ['*'] }] }],
    ['roles/secrets', { rules: [{ verbs: ['get', 'list', 'create'], resources: ['secrets'] }] }],
  ] as const) {
    const refused = await call(`${ns}/${path}`, 'PUT', dan, body);
    assert.equal(refused.status, 403, `${path}: ${JSON.stringify(refused.body)}`);
    assert.match(refused.body.message, /may not grant .* which they do not hold themselves/);
  }
  // A Role of what dan holds, and a binding to edit (a subset of admin), are fine.
  assert.equal((await call(`${ns}/roles/checks-only`, 'PUT', dan, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${ns}/rolebindings/dan-edit`, 'PUT', dan, bindTo('edit'))).status, 201);
  // Still no secrets for dan.
  assert.equal(
    (
      await call(`${v2}/api/enterprise/secrets/v1/namespaces/team-c/secrets/s`, 'PUT', dan, {
        type: 'Secret',
        api_version: 'secrets/v1',
        metadata: { name: 's' },
        spec: { id: 'HOME', provider: 'env' },
      })
    ).status,
    403,
  );
  // A cluster admin may bind cluster-admin anywhere.
  assert.equal((await call(`${ns}/rolebindings/up`, 'PUT', admin, bindTo('cluster-admin'))).status, 201);
});

test("commands never see the daemon's credentials, and the state store is its owner's only", async (t) => {
  const { root, v2, api } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'priv-host', address: '127.0.0.1', subscriptions: [] } },
  });
  const out = join(root, 'env.txt');
  const admin = `Bearer ${await adminToken(v2)}`;
  // A handler anyone with `edit` could write: it dumps its environment.
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/handlers/dump`, 'PUT', admin, { type: 'pipe', command: `env > ${out}` })).status, 201);
  const event = { entity: { entity_class: 'proxy', metadata: { name: 'e' } }, check: { metadata: { name: 'c' }, status: 2, interval: 60, handlers: ['dump'] } };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/e/c`, 'PUT', admin, event)).status, 201);
  const env = await eventually(
    async () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
    (text) => text.includes('PATH='),
  );
  assert.ok(env.includes('SENSU_LOADED_TEMPFILE='), 'ordinary variables are still there');
  assert.ok(!/CHECKBRIDGE_ADMIN_PASSWORD|checkbridge-test-admin/.test(env), 'the bootstrap admin password is not');
  assert.ok((await getJson(`${api}/info`)).status === 200);

  const state = join(root, 'state');
  assert.equal(statSync(state).mode & 0o777, 0o700);
  for (const file of ['checkbridge.db', 'checkbridge.db-wal'])
    if (existsSync(join(state, file))) assert.equal(statSync(join(state, file)).mode & 0o777, 0o600, file);
});

test('v2 resource names longer than 255 characters are refused on every write, so every name can be deleted by URL', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'priv-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const long = 'z'.repeat(256);
  for (const [path, body] of [
    ['/api/core/v2/namespaces/default/checks', { command: 'true', interval: 60, metadata: { name: long } }],
    ['/api/core/v2/namespaces/default/roles', { rules: [{ verbs: ['get'], resources: ['checks'] }], metadata: { name: long } }],
    ['/api/core/v2/clusterroles', { rules: [{ verbs: ['get'], resources: ['checks'] }], metadata: { name: long } }],
  ] as const) {
    const refused = await call(`${v2}${path}`, 'POST', admin, body);
    assert.equal(refused.status, 400, `${path}: ${JSON.stringify(refused.body)}`);
  }
  const longest = 'z'.repeat(255);
  assert.equal(
    (await call(`${v2}/api/core/v2/namespaces/default/checks`, 'POST', admin, { command: 'true', interval: 60, publish: true, metadata: { name: longest } }))
      .status,
    201,
  );
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/checks/${longest}`, 'DELETE', admin)).status, 204);
});

test('dashboard pass-through to the legacy API: the matched path decides, settings stay out of reach in any spelling', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'priv-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = { authorization: `Bearer ${await adminToken(v2)}` };
  const { rawRequest } = await import('../helpers/raw-http.js');
  for (const spelling of ['/api/checkbridge/v1/legacy/info', '/api/checkbridge/v1/%6cegacy/info', '/api/checkbridge/v1/legacy/%69nfo']) {
    const reply = await rawRequest(v2, 'GET', spelling, admin);
    assert.equal(reply.status, 200, spelling);
    assert.equal(JSON.parse(reply.text).sensu.version, '1.9.0', spelling);
  }
  for (const spelling of [
    '/api/checkbridge/v1/legacy/settings',
    '/api/checkbridge/v1/legacy/%73ettings',
    '/api/checkbridge/v1/legacy/Settings',
    '/api/checkbridge/v1/legacy/info/../settings',
  ]) {
    assert.ok([400, 404].includes((await rawRequest(v2, 'GET', spelling, admin)).status), spelling);
  }
});
