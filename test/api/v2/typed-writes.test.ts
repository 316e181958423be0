// Every v2 write is decoded into its core/v2 type as Sensu Go's API decodes it: a wrongly typed field is refused
// naming the struct field and its Go type (Sensu Go's encoding/json text), unknown fields are dropped, keys match
// without regard to case; a push event needs no interval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { sensuctlSkipReason, sensuctlFor, ok } from '../../helpers/sensuctl.js';
import { adminToken, call } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'typed-host', address: '127.0.0.1', subscriptions: [] } } };
const SHA = 'a'.repeat(128);
const go = (found: string, field: string, type: string) => `json: cannot unmarshal ${found} into Go struct field ${field} of type ${type}`;

// [method, path under the namespace, body, Sensu Go's message, path whose GET stays 404]
const WRONG: [string, string, unknown, string, string][] = [
  ['PUT', 'checks/c', { command: 'true', interval: 10, publish: 'yes' }, go('string', 'CheckConfig.publish', 'bool'), 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: 1.5 }, go('number 1.5', 'CheckConfig.interval', 'uint32'), 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: -1 }, go('number -1', 'CheckConfig.interval', 'uint32'), 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: 10, handlers: 'slack' }, go('string', 'CheckConfig.handlers', '[]string'), 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: 10, handlers: [1] }, go('number', 'CheckConfig.handlers', 'string'), 'checks/c'],
  [
    'PUT',
    'checks/c',
    { command: 'true', interval: 10, proxy_requests: { splay: 'x' } },
    go('string', 'ProxyRequests.proxy_requests.splay', 'bool'),
    'checks/c',
  ],
  ['PUT', 'checks/c', { command: 'true', interval: 10, metadata: { labels: { a: 1 } } }, go('number', 'ObjectMeta.metadata.labels', 'string'), 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: 10, metadata: { name: 7 } }, go('number', 'ObjectMeta.metadata.name', 'string'), 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: 10, subdue: [] }, go('array', 'CheckConfig.subdue', 'v2.TimeWindowWhen'), 'checks/c'],
  ['PUT', 'checks/c', [1], 'json: cannot unmarshal array into Go value of type v2.CheckConfig', 'checks/c'],
  ['PUT', 'checks/c', { command: 'true', interval: 10, check_hooks: [{ critical: 'h' }] }, go('string', 'CheckConfig.check_hooks', '[]string'), 'checks/c'],
  ['PUT', 'hooks/h', { command: 'true', timeout: '10' }, go('string', 'HookConfig.timeout', 'uint32'), 'hooks/h'],
  ['PUT', 'handlers/h', { type: 'pipe', command: 'cat', timeout: '3' }, go('string', 'Handler.timeout', 'uint32'), 'handlers/h'],
  ['PUT', 'handlers/h', { type: 'tcp', socket: { host: 'x', port: '80' } }, go('string', 'HandlerSocket.socket.port', 'uint32'), 'handlers/h'],
  ['PUT', 'mutators/m', { command: 'cat', env_vars: 'A=1' }, go('string', 'Mutator.env_vars', '[]string'), 'mutators/m'],
  ['PUT', 'filters/f', { action: 'allow', expressions: [true] }, go('bool', 'EventFilter.expressions', 'string'), 'filters/f'],
  ['PUT', 'pipelines/p', { workflows: [{ name: 5 }] }, go('number', 'PipelineWorkflow.workflows.name', 'string'), 'pipelines/p'],
  ['PUT', 'assets/a', { url: 'http://127.0.0.1/a.tgz', sha512: SHA, headers: { a: 1 } }, go('number', 'Asset.headers', 'string'), 'assets/a'],
  ['PUT', 'entities/e', { entity_class: 'proxy', deregister: 'no' }, go('string', 'Entity.deregister', 'bool'), 'entities/e'],
  [
    'PUT',
    'entities/e',
    { entity_class: 'proxy', system: { network: { interfaces: [{ addresses: 'x' }] } } },
    go('string', 'NetworkInterface.system.network.interfaces.addresses', '[]string'),
    'entities/e',
  ],
  ['POST', 'silenced', { subscription: 's', expire: '60' }, go('string', 'Silenced.expire', 'int64'), 'silenced/s:*'],
  ['PUT', 'roles/r', { rules: [{ verbs: 'get', resources: ['checks'] }] }, go('string', 'Rule.rules.verbs', '[]string'), 'roles/r'],
  ['PUT', 'rolebindings/b', { subjects: [], role_ref: 'view' }, go('string', 'RoleBinding.role_ref', 'v2.RoleRef'), 'rolebindings/b'],
  [
    'POST',
    'events',
    { entity: { entity_class: 'proxy', metadata: { name: 'e' } }, check: { metadata: { name: 'k' }, status: '0' } },
    go('string', 'Check.check.status', 'uint32'),
    'events/e/k',
  ],
];

test('every kind: a wrongly typed field is 400 naming the struct field and its Go type, as Sensu Go answers; nothing is stored', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  for (const [method, path, body, message, stored] of WRONG) {
    const reply = await call(`${ns}/${path}`, method, auth, body);
    assert.deepEqual([reply.status, reply.body], [400, { message, code: 1 }], `${method} ${path} ${JSON.stringify(body)}`);
    assert.equal((await call(`${ns}/${stored}`, 'GET', auth)).status, 404, `${method} ${path}: nothing stored`);
  }
  const cluster = await call(`${v2}/api/core/v2/clusterroles/cr`, 'PUT', auth, { rules: [{ verbs: ['get'], resources: 'checks' }] });
  assert.deepEqual([cluster.status, cluster.body.message], [400, go('string', 'Rule.rules.resources', '[]string')]);
});

test('every kind: unknown fields are dropped (neither stored nor served); keys match without regard to case, as in Go', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const written: [string, Record<string, unknown>][] = [
    ['checks/c', { command: 'true', interval: 10, Publish: true, TIMEOUT: 5, subscriptions: ['s'], proxy_requests: { splay: false, nope: 1 } }],
    ['hooks/h', { command: 'true', timeout: 10 }],
    ['handlers/h', { type: 'pipe', command: 'cat' }],
    ['mutators/m', { command: 'cat' }],
    ['filters/f', { action: 'allow', expressions: ['true'] }],
    ['pipelines/p', { workflows: [{ name: 'w', handler: { name: 'h', type: 'Handler', api_version: 'core/v2', nope: 1 } }] }],
    ['assets/a', { url: 'http://127.0.0.1/a.tgz', sha512: SHA }],
    ['entities/e', { entity_class: 'proxy', system: { os: 'linux', nope: 1 } }],
    ['roles/r', { rules: [{ verbs: ['get'], resources: ['checks'], nope: 1 }] }],
  ];
  for (const [path, body] of written) {
    const reply = await call(`${ns}/${path}`, 'PUT', auth, { ...body, frobnicate: 1, metadata: { frobnicate: 1 } });
    assert.ok([200, 201].includes(reply.status), `PUT ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    const served = JSON.stringify((await call(`${ns}/${path}`, 'GET', auth)).body);
    assert.doesNotMatch(served, /frobnicate|nope|Publish|TIMEOUT/, `GET ${path}: ${served}`);
    const listed = JSON.stringify((await call(`${ns}/${path.split('/')[0]}`, 'GET', auth)).body);
    assert.doesNotMatch(listed, /frobnicate|nope/, `list of ${path}`);
  }
  // Check hooks are objects from a status or severity to hook names: kept whole.
  const hooks = [{ critical: ['h'] }, { '1': ['a', 'b'] }];
  assert.equal((await call(`${ns}/checks/hooked`, 'PUT', auth, { command: 'true', interval: 10, check_hooks: hooks })).status, 201);
  assert.deepEqual((await call(`${ns}/checks/hooked`, 'GET', auth)).body.check_hooks, hooks);
  const check = (await call(`${ns}/checks/c`, 'GET', auth)).body;
  assert.deepEqual([check.publish, check.timeout, check.proxy_requests], [true, 5, { entity_attributes: null, splay: false, splay_coverage: 0 }]);
});

test('a push event with no interval ({"status":0}) is accepted by PUT and POST, as Sensu Go; publish:true still needs one', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const event = (check: string, extra: Record<string, unknown> = {}) => ({
    check: { metadata: { name: check }, status: 0, ...extra },
    entity: { entity_class: 'proxy', metadata: { name: 'pusher', namespace: 'default' } },
  });
  assert.equal((await call(`${ns}/events/pusher/k1`, 'PUT', auth, event('k1'))).status, 201);
  assert.equal((await call(`${ns}/events`, 'POST', auth, event('k2'))).status, 201);
  for (const name of ['k1', 'k2']) {
    const stored = (await call(`${ns}/events/pusher/${name}`, 'GET', auth)).body;
    assert.deepEqual([stored.check.interval, stored.check.publish, stored.check.status, stored.check.state], [0, false, 0, 'passing'], name);
  }
  const scheduled = await call(`${ns}/events`, 'POST', auth, event('k3', { publish: true }));
  assert.deepEqual([scheduled.status, scheduled.body.message], [400, 'check is invalid: check interval must be greater than or equal to 1']);
});

test('the real sensuctl lists checks after a wrongly typed write was refused', { skip: sensuctlSkipReason() }, async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${ns}/checks/typed`, 'PUT', auth, { command: 'true', interval: 10, publish: 'yes' })).status, 400);
  assert.equal((await call(`${ns}/hooks/typed`, 'PUT', auth, { command: 'true', timeout: '10' })).status, 400);
  assert.equal((await call(`${ns}/checks/fine`, 'PUT', auth, { command: 'true', interval: 10, frobnicate: { a: 1 } })).status, 201);
  const sensuctl = sensuctlFor(t);
  ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
  const checks = JSON.parse(ok(sensuctl, 'check', 'list', '--format', 'json')) as { metadata: { name: string } }[];
  assert.deepEqual(
    checks.map((c) => c.metadata.name),
    ['fine'],
  );
  assert.match(ok(sensuctl, 'hook', 'list'), /Name/);
});
