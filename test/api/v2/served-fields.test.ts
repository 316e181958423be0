// Resources are served as Sensu Go serves them: every field of the type, in its order, zero values filled in. The
// expected bodies are the real Sensu Go 6.12 backend's answers to the same writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../../helpers/instance.js';
import { adminToken, call } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'served-host', address: '127.0.0.1', subscriptions: [] } } };
const SHA = 'a'.repeat(128);
const meta = (name: string) => ({ name, namespace: 'default', created_by: 'admin' });

// [path, body written, body Sensu Go serves back]
const SERVED: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    'checks/c2',
    { command: 'true', interval: 10 },
    {
      command: 'true',
      handlers: [],
      high_flap_threshold: 0,
      interval: 10,
      low_flap_threshold: 0,
      publish: false,
      runtime_assets: null,
      subscriptions: [],
      proxy_entity_name: '',
      check_hooks: null,
      stdin: false,
      subdue: null,
      ttl: 0,
      timeout: 0,
      round_robin: false,
      output_metric_format: '',
      output_metric_handlers: null,
      env_vars: null,
      metadata: meta('c2'),
      secrets: null,
      pipelines: [],
    },
  ],
  ['hooks/ho', { command: 'x', timeout: 5 }, { metadata: meta('ho'), command: 'x', timeout: 5, stdin: false, runtime_assets: null }],
  [
    'handlers/hd',
    { type: 'pipe', command: 'x' },
    { metadata: meta('hd'), type: 'pipe', command: 'x', timeout: 0, handlers: null, filters: null, env_vars: null, runtime_assets: null, secrets: null },
  ],
  ['mutators/mu', { command: 'x' }, { metadata: meta('mu'), command: 'x', timeout: 0, env_vars: null, runtime_assets: null, secrets: null }],
  ['filters/fi', { action: 'allow', expressions: ['true'] }, { metadata: meta('fi'), action: 'allow', expressions: ['true'], runtime_assets: null }],
  [
    'pipelines/pi',
    { workflows: [{ name: 'w', handler: { name: 'h', type: 'Handler', api_version: 'core/v2' } }] },
    { metadata: meta('pi'), workflows: [{ name: 'w', handler: { name: 'h', type: 'Handler', api_version: 'core/v2' } }] },
  ],
  ['pipelines/p0', {}, { metadata: meta('p0'), workflows: null }],
  [
    'assets/as',
    { url: 'http://x/y.tgz', sha512: SHA },
    { url: 'http://x/y.tgz', sha512: SHA, filters: null, builds: null, metadata: meta('as'), headers: null },
  ],
  [
    'roles/r1',
    { rules: [{ verbs: ['get'], resources: ['checks'] }] },
    { rules: [{ verbs: ['get'], resources: ['checks'], resource_names: null }], metadata: meta('r1') },
  ],
  [
    'rolebindings/b1',
    { subjects: [{ type: 'User', name: 'x' }], role_ref: { type: 'Role', name: 'r1' } },
    { subjects: [{ type: 'User', name: 'x' }], role_ref: { type: 'Role', name: 'r1' }, metadata: meta('b1') },
  ],
];

test('every kind is served with every field of its type, in its order, as Sensu Go serves it (GET and list)', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  for (const [path, body, served] of SERVED) {
    assert.equal((await call(`${ns}/${path}`, 'PUT', auth, body)).status, 201, path);
    const got = (await call(`${ns}/${path}`, 'GET', auth)).body;
    // Key by key, in order: templates and dictionary clients read them so.
    assert.deepEqual(Object.keys(got), Object.keys(served), path);
    assert.deepEqual(got, served, path);
    const listed = (await call(`${ns}/${path.split('/')[0]}`, 'GET', auth)).body as { metadata: { name: string } }[];
    assert.deepEqual(
      listed.find((item) => item.metadata.name === path.split('/')[1]),
      served,
      `list of ${path}`,
    );
  }
});

test('entities are served with system, last_seen, deregister, deregistration and sensu_agent_version; events carry entity.sensu_agent_version', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.ok([200, 201].includes((await call(`${ns}/entities/e1`, 'PUT', auth, { entity_class: 'proxy' })).status));
  const entity = (await call(`${ns}/entities/e1`, 'GET', auth)).body;
  const { metadata, ...rest } = entity;
  assert.deepEqual(rest, {
    entity_class: 'proxy',
    system: { network: { interfaces: null }, libc_type: '', vm_system: '', vm_role: '', cloud_provider: '', processes: null },
    subscriptions: null,
    last_seen: 0,
    deregister: false,
    deregistration: {},
    sensu_agent_version: '',
  });
  assert.deepEqual(Object.keys(entity), [
    'entity_class',
    'system',
    'subscriptions',
    'last_seen',
    'deregister',
    'deregistration',
    'metadata',
    'sensu_agent_version',
  ]);
  assert.deepEqual([metadata.name, metadata.namespace], ['e1', 'default']);
  // Labels the redact list names (Sensu Go's list by default) are served as REDACTED.
  assert.ok(
    [200, 201].includes((await call(`${ns}/entities/e2`, 'PUT', auth, { entity_class: 'proxy', metadata: { labels: { password: 'x', team: 'a' } } })).status),
  );
  assert.deepEqual((await call(`${ns}/entities/e2`, 'GET', auth)).body.metadata.labels, { password: 'REDACTED', team: 'a' });
  const pushed = { check: { metadata: { name: 'k1' }, status: 0 }, entity: { entity_class: 'proxy', metadata: { name: 'e9', namespace: 'default' } } };
  assert.equal((await call(`${ns}/events/e9/k1`, 'PUT', auth, pushed)).status, 201);
  const event = (await call(`${ns}/events/e9/k1`, 'GET', auth)).body;
  assert.equal(event.entity.sensu_agent_version, '');
  assert.equal('svc_agent_version' in event.entity, false);
});

test('a silence is served with expire, expire_on_resolve, begin, expire_at and its creator: the user who wrote it, whatever the body says', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${ns}/silenced`, 'POST', auth, { subscription: 'sub1', creator: 'bob', frob: 1 })).status, 201);
  const [silence] = (await call(`${ns}/silenced`, 'GET', auth)).body;
  assert.deepEqual(Object.keys(silence), ['metadata', 'expire', 'expire_on_resolve', 'creator', 'subscription', 'begin', 'expire_at']);
  assert.deepEqual([silence.metadata, silence.expire, silence.expire_on_resolve, silence.creator], [meta('sub1:*'), 0, false, 'admin']);
  assert.equal((await call(`${ns}/silenced/sub1:*`, 'GET', auth)).body.creator, 'admin');
});
