import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { instanceFor, getJson, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { runCli } from '../../helpers/cli.js';
import { call, adminToken } from '../v2/v2-helpers.js';
import { v2App } from '../../helpers/v2-api.js';

const BASE = '/api/enterprise/secrets/v1';
const vault = (name: string, client: Record<string, unknown> = {}) => ({
  type: 'ExternalProvider',
  api_version: 'secrets/v1',
  metadata: { name },
  spec: { client: { address: 'https://vault.example:8200', token: `token-of-${name}`, version: 'v2', ...client } },
});

test('secrets/v1 API: providers (one Env, vaults over TLS only) and secrets, admins only, with create -f and dump', async (t) => {
  const { v2, root } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'api-host', address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const at = (path: string, method = 'GET', body?: unknown) => call(`${v2}${BASE}${path}`, method, auth, body);

  const start = await at('/providers');
  assert.equal(start.status, 200);
  assert.deepEqual(start.body, [{ type: 'Env', api_version: 'secrets/v1', metadata: { name: 'env' }, spec: {} }], 'the Env provider exists from the start');
  const second = await at('/providers/env2', 'PUT', { type: 'Env', api_version: 'secrets/v1', metadata: { name: 'env2' }, spec: {} });
  assert.equal(second.status, 400);
  assert.match(second.body.message, /exactly one Env provider/);
  assert.equal((await at('/providers/env', 'DELETE')).status, 409, 'the Env provider cannot be deleted');

  const plain = await at('/providers/plain', 'PUT', vault('plain', { address: 'http://vault.example:8200' }));
  assert.equal(plain.status, 400);
  assert.match(plain.body.message, /only over TLS/);
  for (const [without, message] of [
    ['type', /type is required/],
    ['api_version', /api_version is required/],
    ['spec', /spec is required/],
  ] as const) {
    const body: Record<string, unknown> = vault('partial');
    delete body[without];
    const reply = await at('/providers/partial', 'PUT', body);
    assert.equal(reply.status, 400, without);
    assert.match(reply.body.message, message);
  }
  assert.equal((await at('/providers/v', 'PUT', vault('v', { version: 'v3' }))).status, 400);
  assert.equal((await at('/providers/v', 'PUT', vault('v', { max_retry: 3 }))).body.message, 'unknown field spec.client.max_retry');
  assert.equal((await at('/providers/v', 'PUT', vault('v', { token: 'REDACTED' }))).status, 400, 'a new provider needs its real token');

  for (const name of ['vault-a', 'vault-b', 'vault-c']) assert.equal((await at(`/providers/${name}`, 'PUT', vault(name))).status, 201);
  const one = await at('/providers/vault-a');
  assert.equal(one.status, 200);
  assert.deepEqual(
    one.body.spec.client,
    { address: 'https://vault.example:8200', token: 'REDACTED', version: 'v2', max_retries: 2, timeout: '60s', tls: null },
    'defaults shown, token never, tls null without one (as Sensu Go serves it: the Ansible collection reads it unguarded)',
  );
  assert.equal((await at('/providers/vault-a', 'PUT', one.body)).status, 201, 'the read written back as it is');
  assert.equal(one.body.metadata.created_by, 'admin');
  const changed = await at('/providers/vault-a', 'PUT', { type: 'Env', api_version: 'secrets/v1', metadata: { name: 'vault-a' }, spec: {} });
  assert.equal(changed.status, 400);
  assert.match(changed.body.message, /cannot be changed/);
  assert.equal(
    (await at('/providers/vault-a', 'PUT', vault('vault-a', { token: 'REDACTED', max_retries: 5 }))).status,
    201,
    'a read written back keeps the stored token',
  );
  assert.equal((await at('/providers/vault-a')).body.spec.client.max_retries, 5);

  const page = await at('/providers?limit=2');
  assert.deepEqual(
    page.body.map((p: { metadata: { name: string } }) => p.metadata.name),
    ['env', 'vault-a'],
  );
  const rest = await at(`/providers?limit=2&continue=${page.headers.get('sensu-continue')}`);
  assert.deepEqual(
    rest.body.map((p: { metadata: { name: string } }) => p.metadata.name),
    ['vault-b', 'vault-c'],
  );
  const selected = await at(`/providers?fieldSelector=${encodeURIComponent('provider.name == vault-b')}`);
  assert.deepEqual(
    selected.body.map((p: { metadata: { name: string } }) => p.metadata.name),
    ['vault-b'],
  );
  assert.equal((await at('/providers/vault-c', 'DELETE')).status, 204);
  assert.equal((await at('/providers/vault-c', 'DELETE')).status, 404);
  assert.equal((await at('/providers/vault-c')).status, 404);

  // Secrets: namespaced, and listed across namespaces.
  assert.equal((await call(`${v2}/api/core/v2/namespaces/other`, 'PUT', auth, { name: 'other' })).status, 201);
  const secret = (ns: string, name: string, provider: string, id: string) =>
    at(`/namespaces/${ns}/secrets/${name}`, 'PUT', { type: 'Secret', api_version: 'secrets/v1', metadata: { name }, spec: { provider, id } });
  assert.equal((await secret('default', 'db', 'env', 'DB_PASSWORD')).status, 201);
  assert.equal((await secret('other', 'api', 'vault-a', 'secret/api#token')).status, 201);
  assert.equal((await secret('missing', 'x', 'env', 'X')).status, 404, 'a namespace that does not exist');
  assert.equal((await at('/namespaces/default/secrets/bad', 'PUT', { type: 'Secret', api_version: 'secrets/v1', spec: { provider: 'env' } })).status, 400);
  assert.deepEqual(
    (await at('/secrets')).body.map((s: { metadata: { namespace: string; name: string } }) => `${s.metadata.namespace}/${s.metadata.name}`),
    ['default/db', 'other/api'],
  );
  assert.deepEqual(
    (await at(`/secrets?fieldSelector=${encodeURIComponent('secret.provider == vault-a')}`)).body.map((s: { metadata: { name: string } }) => s.metadata.name),
    ['api'],
  );
  assert.deepEqual((await at(`/secrets?fieldSelector=${encodeURIComponent('secret.id == DB_PASSWORD && secret.namespace == default')}`)).body.length, 1);
  assert.deepEqual((await at('/namespaces/default/secrets/db')).body, {
    type: 'Secret',
    api_version: 'secrets/v1',
    metadata: { name: 'db', namespace: 'default', created_by: 'admin' },
    spec: { id: 'DB_PASSWORD', provider: 'env' },
  });
  assert.equal((await at('/namespaces/other/secrets/api', 'DELETE')).status, 204);
  assert.equal((await at('/namespaces/other/secrets/api', 'DELETE')).status, 404);

  // Admins only: a user outside cluster-admins is refused every route.
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', auth, { username: 'viewer', password: 'viewer-pass-1', groups: ['viewers'] })).status, 201);
  const viewer = await getJson(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from('viewer:viewer-pass-1').toString('base64') } });
  const viewerAuth = `Bearer ${viewer.body.access_token}`;
  for (const [method, path] of [
    ['GET', '/providers'],
    ['GET', '/providers/env'],
    ['PUT', '/providers/x'],
    ['DELETE', '/providers/vault-a'],
    ['GET', '/secrets'],
    ['GET', '/namespaces/default/secrets'],
    ['PUT', '/namespaces/default/secrets/x'],
  ]) {
    assert.equal((await call(`${v2}${BASE}${path}`, method!, viewerAuth, method === 'PUT' ? vault('x') : undefined)).status, 403, `${method} ${path}`);
  }

  // create -f and dump.
  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const file = join(root, 'secrets.yaml');
  writeFileSync(
    file,
    [
      'type: ExternalProvider\napi_version: secrets/v1\nmetadata:\n  name: from-file\nspec:\n  client:\n    address: https://vault.example:8200\n    token: file-token\n    version: v1\n    rate_limiter:\n      limit: 10\n      burst: 5\n',
      'type: Secret\napi_version: secrets/v1\nmetadata:\n  name: file-secret\nspec:\n  provider: from-file\n  id: kv/app#password\n',
    ].join('---\n'),
  );
  const created = runCli(['create', '-f', file, '--url', v2], asAdmin);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout, 'applied 2 of 2 resources\n');
  assert.equal((await at('/providers/from-file')).body.spec.client.rate_limiter.burst, 5);
  assert.equal((await at('/namespaces/default/secrets/file-secret')).body.spec.id, 'kv/app#password');
  const incomplete = join(root, 'incomplete.yaml');
  writeFileSync(
    incomplete,
    'type: Secret\nmetadata:\n  name: no-version\nspec:\n  provider: env\n  id: X\n---\ntype: Secret\napi_version: secrets/v1\nmetadata:\n  name: no-spec\n',
  );
  const refused = runCli(['create', '-f', incomplete, '--url', v2], asAdmin);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /resource #1 with name "no-version": api_version is required/);
  assert.match(refused.stderr, /resource #2 with name "no-spec": no spec provided/);
  const dumped = runCli(['dump', 'providers,secrets', '--url', v2], asAdmin);
  assert.equal(dumped.code, 0, dumped.stderr);
  const documents = dumped.stdout.split(/^---$/m).map((d) => parse(d));
  assert.deepEqual(
    documents.map((d) => `${d.type}/${d.metadata.name}`),
    ['Env/env', 'ExternalProvider/from-file', 'ExternalProvider/vault-a', 'ExternalProvider/vault-b', 'Secret/db', 'Secret/file-secret'],
  );
  assert.ok(!dumped.stdout.includes('file-token'), 'dump does not show vault tokens');
  // What dump wrote applies again as it is (the tokens kept).
  writeFileSync(join(root, 'dump.yaml'), dumped.stdout);
  const again = runCli(['create', '-f', join(root, 'dump.yaml'), '--url', v2], asAdmin);
  assert.equal(again.code, 0, again.stderr);
});

test('a provider or secret whose metadata is not a map is refused, not stored with its characters or items as fields', async (t) => {
  const { app, bearer, store } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const authorization = await bearer('admin', ['cluster-admins']);
  const put = (path: string, body: object) => app.inject({ method: 'PUT', url: `${BASE}${path}`, headers: { authorization }, payload: body });
  for (const metadata of ['abc', ['abc'], 7]) {
    const provider = await put('/providers/vault-m', { ...vault('vault-m'), metadata });
    assert.deepEqual([provider.statusCode, provider.json().message], [400, 'metadata must be a map'], JSON.stringify(metadata));
    const secret = await put('/namespaces/default/secrets/db', { type: 'Secret', api_version: 'secrets/v1', metadata, spec: { provider: 'env', id: 'X' } });
    assert.deepEqual([secret.statusCode, secret.json().message], [400, 'metadata must be a map'], JSON.stringify(metadata));
  }
  assert.equal(store.resources.getResource('SecretsProvider', '', 'vault-m'), null);
  assert.equal(store.resources.getResource('Secret', 'default', 'db'), null);
  // null is no metadata, as Go reads it: the URL names the resource.
  assert.equal(
    (await put('/namespaces/default/secrets/db', { type: 'Secret', api_version: 'secrets/v1', metadata: null, spec: { provider: 'env', id: 'X' } })).statusCode,
    201,
  );
});
