// Sensu Go's `VaultProvider` (every Sensu Go user's YAML, the official Python client) is read as ExternalProvider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { runCli } from '../../helpers/cli.js';
import { call, adminToken } from '../v2/v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'vault-alias-host', address: '127.0.0.1', subscriptions: [] } } };
const client = { address: 'https://vault.example.com:8200', token: 's.secret-token', version: 'v2' };

test('secrets providers: type VaultProvider is accepted as ExternalProvider through the API, create -f and a dump round trip', async (t) => {
  const { v2, root } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const providers = `${v2}/api/enterprise/secrets/v1/providers`;
  // The official Python client's request.
  const put = await call(`${providers}/py-vault`, 'PUT', admin, {
    type: 'VaultProvider',
    api_version: 'secrets/v1',
    metadata: { name: 'py-vault' },
    spec: { client },
  });
  assert.equal(put.status, 201, JSON.stringify(put.body));
  const stored = (await call(`${providers}/py-vault`, 'GET', admin)).body;
  assert.deepEqual([stored.type, stored.spec.client.address], ['ExternalProvider', client.address]);
  // Rewriting it under either name is the same type; the Env provider stays what it is.
  assert.equal((await call(`${providers}/py-vault`, 'PUT', admin, { type: 'ExternalProvider', api_version: 'secrets/v1', spec: { client } })).status, 201);
  assert.match(
    (await call(`${providers}/env`, 'PUT', admin, { type: 'VaultProvider', api_version: 'secrets/v1', spec: { client } })).body.message,
    /cannot be changed/,
  );

  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const file = join(root, 'vault.yaml');
  writeFileSync(
    file,
    `type: VaultProvider\napi_version: secrets/v1\nmetadata:\n  name: my-vault\nspec:\n  client:\n    address: ${client.address}\n    token: file-token\n    version: v1\n`,
  );
  const created = runCli(['create', '-f', file, '--url', v2], asAdmin);
  assert.equal(created.code, 0, created.stderr);
  assert.equal((await call(`${providers}/my-vault`, 'GET', admin)).body.type, 'ExternalProvider');
  const dumped = runCli(['dump', 'secrets/v1.VaultProvider', '--url', v2], asAdmin);
  assert.equal(dumped.code, 0, dumped.stderr);
  assert.match(dumped.stdout, /type: ExternalProvider/);
  writeFileSync(join(root, 'dump.yaml'), dumped.stdout);
  const again = runCli(['create', '-f', join(root, 'dump.yaml'), '--url', v2], asAdmin);
  assert.equal(again.code, 0, again.stderr);
});
