import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CLUSTER_KINDS, clusterDocuments, clusterPut, parseResources, readResourceFiles } from '../../src/cli/resource-files.js';
import { CheckbridgeError } from '../../src/errors.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('YAML documents split at --- lines, empty documents skipped', () => {
  const text = '---\ntype: CheckConfig\nmetadata:\n  name: a\n--- # second\ntype: Handler\nmetadata:\n  name: b\n---\n\n';
  assert.deepEqual(parseResources(text, 'x.yaml'), [
    { type: 'CheckConfig', metadata: { name: 'a' } },
    { type: 'Handler', metadata: { name: 'b' } },
  ]);
});

test('wrapped JSON holds back-to-back objects and arrays, braces inside strings included', () => {
  const text = '{"type":"CheckConfig","spec":{"command":"echo \\"}{\\" [x] \\"}"}}\n{"type":"Handler"}\n[{"type":"Mutator"},{"type":"Asset"}]';
  assert.deepEqual(
    parseResources(text, 'x.json').map((r) => r.type),
    ['CheckConfig', 'Handler', 'Mutator', 'Asset'],
  );
  assert.equal(parseResources(text, 'x.json')[0]!.spec.command, 'echo "}{" [x] "}');
});

test('a document that does not parse is a usage error naming its file', () => {
  assert.throws(
    () => parseResources('{"type": }', 'bad.json'),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && error.message.startsWith('invalid usage: bad.json: '),
  );
  assert.throws(() => parseResources('a: [1\n', 'bad.yaml'), /invalid usage: bad\.yaml: /);
});

test('a directory gives its .yaml, .yml and .json files in name order, not its subdirectories; a file gives itself', (t) => {
  const root = makeTree({
    'b.yml': 'type: Handler\n',
    'a.json': '{"type":"CheckConfig"}',
    'c.yaml': 'type: Mutator\n',
    'notes.txt': 'type: Ignored\n',
    'sub/d.yaml': 'type: Asset\n',
  });
  t.after(() => removeTree(root));
  const files = readResourceFiles(root);
  assert.deepEqual(
    files.map((f) => [f.source, f.resources.map((r) => r.type)]),
    [
      [join(root, 'a.json'), ['CheckConfig']],
      [join(root, 'b.yml'), ['Handler']],
      [join(root, 'c.yaml'), ['Mutator']],
    ],
  );
  assert.deepEqual(readResourceFiles(join(root, 'notes.txt')), [{ source: join(root, 'notes.txt'), resources: [{ type: 'Ignored' }] }]);
  assert.throws(() => readResourceFiles(join(root, 'absent')), { message: `invalid usage: ${join(root, 'absent')}: no such file or directory` });
});

test('a core/v2 cluster kind is PUT flat with its metadata; a provider wrapped, its type under a capital T', () => {
  const role = CLUSTER_KINDS.get('core/v2.ClusterRole')!;
  assert.deepEqual(clusterPut(role, { type: 'ClusterRole', api_version: 'core/v2', metadata: { name: 'ops' }, spec: { rules: [] } }, 'ops'), {
    url: '/api/core/v2/clusterroles/ops',
    body: { rules: [], metadata: { name: 'ops' } },
  });
  const ldap = CLUSTER_KINDS.get('authentication/v2.ldap')!;
  assert.deepEqual(clusterPut(ldap, { type: 'ldap', api_version: 'authentication/v2', metadata: { name: 'corp dir' }, spec: { servers: [] } }, 'corp dir'), {
    url: '/api/enterprise/authentication/v2/authproviders/corp%20dir',
    body: { api_version: 'authentication/v2', metadata: { name: 'corp dir' }, spec: { servers: [] }, Type: 'ldap' },
  });
  assert.equal(clusterPut(ldap, { Type: 'ad', api_version: 'authentication/v2' }, 'a').body.Type, 'ad');
});

test('dumped core/v2 cluster items are wrapped with their kind; providers come back as the API gives them', () => {
  const binding = CLUSTER_KINDS.get('core/v2.ClusterRoleBinding')!;
  assert.deepEqual(clusterDocuments('core/v2.ClusterRoleBinding', binding, [{ metadata: { name: 'b' }, role_ref: { name: 'r' } }]), [
    { type: 'ClusterRoleBinding', api_version: 'core/v2', metadata: { name: 'b' }, spec: { role_ref: { name: 'r' } } },
  ]);
  const items = [{ type: 'oidc', api_version: 'authentication/v2', metadata: { name: 'sso' } }];
  assert.equal(clusterDocuments('authentication/v2.oidc', CLUSTER_KINDS.get('authentication/v2.oidc')!, items), items);
});
