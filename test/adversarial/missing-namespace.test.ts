// Nothing is written into a namespace that does not exist (Sensu Go refuses it too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, postJson, eventually } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const event = {
  entity: { entity_class: 'proxy', metadata: { name: 'ghost-entity' } },
  check: { metadata: { name: 'ghost-check' }, status: 2, interval: 60, output: 'boo' },
};

test('v2 writes into a namespace that does not exist are 404 naming it; nothing is stored, and the namespace is not created', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'ns-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  const ghost = `${core}/namespaces/ghost`;
  for (const [method, path, body] of [
    ['PUT', 'events/ghost-entity/ghost-check', event],
    ['POST', 'events', event],
    ['PUT', 'rolebindings/b', { subjects: [{ type: 'User', name: 'x' }], role_ref: { type: 'ClusterRole', name: 'view' } }],
    ['POST', 'roles', { metadata: { name: 'r' }, rules: [{ verbs: ['get'], resources: ['checks'] }] }],
    ['PUT', 'checks/c', { command: 'true', interval: 60 }],
    ['PUT', 'entities/e', { entity_class: 'proxy' }],
    ['PUT', 'handlers/h', { type: 'pipe', command: 'cat' }],
    ['POST', 'silenced', { subscription: 'linux', check: 'c', expire: 600 }],
    ['PUT', 'assets/a', { url: 'http://127.0.0.1/a.tar.gz', sha512: 'a'.repeat(128) }],
    ['PUT', 'filters/f', { action: 'allow', expressions: ['true'] }],
    ['PUT', 'mutators/m', { command: 'cat' }],
    ['PUT', 'hooks/k', { command: 'true', timeout: 10 }],
    ['PUT', 'pipelines/p', { workflows: [] }],
    ['POST', 'checks/c/execute', { reason: 'r' }],
  ] as const) {
    const refused = await call(`${ghost}/${path}`, method, admin, body);
    assert.equal(refused.status, 404, `${method} ${path}: ${JSON.stringify(refused.body)}`);
    // Sensu Go's store's message (ErrNamespaceMissing).
    assert.deepEqual(refused.body, { message: 'the namespace ghost does not exist', code: 2 }, `${method} ${path}`);
  }
  const secret = await call(`${v2}/api/enterprise/secrets/v1/namespaces/ghost/secrets/s`, 'PUT', admin, {
    type: 'Secret',
    api_version: 'secrets/v1',
    spec: { id: 'X', provider: 'env' },
  });
  assert.deepEqual([secret.status, secret.body.message], [404, 'the namespace ghost does not exist']);
  for (const path of ['events', 'rolebindings', 'roles', 'checks', 'entities', 'handlers'])
    assert.deepEqual((await call(`${ghost}/${path}`, 'GET', admin)).body, [], path);
  assert.equal((await call(`${core}/events`, 'GET', admin)).body.filter((e: any) => e.check?.metadata?.name === 'ghost-check').length, 0);
  assert.equal((await call(`${core}/namespaces/ghost`, 'GET', admin)).status, 404);

  // Once the namespace exists, the same writes go through; `default` always exists.
  assert.equal((await call(`${core}/namespaces/ghost`, 'PUT', admin, {})).status, 201);
  assert.equal((await call(`${ghost}/events/ghost-entity/ghost-check`, 'PUT', admin, event)).status, 201);
  assert.equal(
    (await call(`${ghost}/rolebindings/b`, 'PUT', admin, { subjects: [{ type: 'User', name: 'x' }], role_ref: { type: 'ClusterRole', name: 'view' } })).status,
    201,
  );
  assert.equal(
    (
      await call(`${core}/namespaces/default/events/d-entity/d-check`, 'PUT', admin, {
        ...event,
        entity: { entity_class: 'proxy', metadata: { name: 'd-entity' } },
        check: { ...event.check, metadata: { name: 'd-check' } },
      })
    ).status,
    201,
  );
});

test('legacy events mirror into checkbridge.namespace: that namespace exists from the start and takes API writes', async (t) => {
  const { v2, api } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'mirror-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checkbridge.json': { checkbridge: { namespace: 'legacy-fleet' } },
  });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  assert.equal((await call(`${core}/namespaces/legacy-fleet`, 'GET', admin)).status, 200);
  assert.equal((await postJson(`${api}/results`, { name: 'mirrored', source: 'mirror-host', output: 'down', status: 2 })).status, 202);
  const mirrored = await eventually(
    () => call(`${core}/namespaces/legacy-fleet/events/mirror-host/mirrored`, 'GET', admin),
    (r) => r.status === 200,
  );
  assert.equal(mirrored.body.check.output, 'down');
  assert.equal(
    (
      await call(`${core}/namespaces/legacy-fleet/silenced/entity:mirror-host:mirrored`, 'PUT', admin, {
        check: 'mirrored',
        subscription: 'entity:mirror-host',
      })
    ).status,
    201,
  );
  assert.ok((await getJson(`${api}/info`)).status === 200);
});
