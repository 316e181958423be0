// The real sensuctl 6.12: `delete -f` of a Role with its RoleBinding (and of a dump of them), and Bonsai-style asset names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceFor, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';
import { sensuctlSkipReason, sensuctlFor, ok } from '../../helpers/sensuctl.js';

const HOST = { 'conf.d/client.json': { client: { name: 'sensuctl-writes', address: '127.0.0.1', subscriptions: [] } } };
const skip = sensuctlSkipReason();

const ROLE_AND_BINDING = [
  'type: Role\napi_version: core/v2\nmetadata:\n  name: check-reader\n  namespace: default\nspec:\n  rules:\n  - verbs: [get, list]\n    resources: [checks]',
  'type: RoleBinding\napi_version: core/v2\nmetadata:\n  name: check-reader\n  namespace: default\nspec:\n  role_ref:\n    type: Role\n    name: check-reader\n  subjects:\n  - type: Group\n    name: readers',
].join('\n---\n');

const ASSET =
  'type: Asset\napi_version: core/v2\nmetadata:\n  name: sensu/check-cpu-usage\n  namespace: default\nspec:\n' +
  `  builds:\n  - url: https://assets.bonsai.sensu.io/check-cpu-usage_0.2.2_linux_amd64.tar.gz\n    sha512: ${'b'.repeat(128)}\n` +
  "    filters:\n    - entity.system.os == 'linux'\n";

test('sensuctl: delete -f of a Role and its RoleBinding, and dump then delete -f and create -f of the dump', { skip }, async (t) => {
  const { root, v2 } = await instanceFor(t, HOST);
  const sensuctl = sensuctlFor(t);
  ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
  const admin = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const file = join(root, 'rbac.yaml');
  writeFileSync(file, ROLE_AND_BINDING);
  ok(sensuctl, 'create', '-f', file);
  ok(sensuctl, 'delete', '-f', file);
  for (const path of ['roles/check-reader', 'rolebindings/check-reader']) assert.equal((await call(`${ns}/${path}`, 'GET', admin)).status, 404, path);

  ok(sensuctl, 'create', '-f', file);
  const dump = join(root, 'dump.yaml');
  writeFileSync(dump, ok(sensuctl, 'dump', 'core/v2.Role,core/v2.RoleBinding', '--format', 'yaml'));
  ok(sensuctl, 'delete', '-f', dump);
  for (const path of ['roles', 'rolebindings']) assert.deepEqual((await call(`${ns}/${path}`, 'GET', admin)).body, [], path);
  ok(sensuctl, 'create', '-f', dump);
  const binding = await call(`${ns}/rolebindings/check-reader`, 'GET', admin);
  assert.deepEqual([binding.status, binding.body.role_ref], [200, { type: 'Role', name: 'check-reader' }]);
});

test('sensuctl: an asset named namespace/name (Bonsai) is created, read, listed and deleted', { skip }, async (t) => {
  const { root, v2 } = await instanceFor(t, HOST);
  const sensuctl = sensuctlFor(t);
  ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
  const file = join(root, 'asset.yaml');
  writeFileSync(file, ASSET);
  ok(sensuctl, 'create', '-f', file);
  assert.equal(JSON.parse(ok(sensuctl, 'asset', 'info', 'sensu/check-cpu-usage', '--format', 'json')).metadata.name, 'sensu/check-cpu-usage');
  assert.deepEqual(
    JSON.parse(ok(sensuctl, 'asset', 'list', '--format', 'json')).map((a: { metadata: { name: string } }) => a.metadata.name),
    ['sensu/check-cpu-usage'],
  );
  ok(sensuctl, 'delete', '-f', file);
  assert.deepEqual(JSON.parse(ok(sensuctl, 'asset', 'list', '--format', 'json')), []);
});
