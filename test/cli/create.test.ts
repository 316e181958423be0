import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseResources } from '../../src/cli/resource-files.js';
import { runCli } from '../helpers/cli.js';
import { ADMIN_PASSWORD, startInstance, type Instance } from '../helpers/instance.js';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';

// One daemon for the file: its v2 API is where `create` writes and `dump` reads.
let root: string;
let instance: Instance;
before(async () => {
  root = makeTree({ 'conf.d/client.json': { client: { name: 'target', address: '127.0.0.1', subscriptions: [] } } });
  instance = await startInstance(root);
});
after(async () => {
  await instance.daemon.stop('SIGKILL');
  removeTree(root);
});

const cli = (args: string[]) =>
  runCli([...args, '--url', instance.v2], { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } });

const CHECK = (name: string, namespace?: string) => ({
  type: 'CheckConfig',
  api_version: 'core/v2',
  metadata: { name, ...(namespace ? { namespace } : {}) },
  spec: { command: 'true', interval: 60, publish: true, subscriptions: ['web'] },
});

test('namespaces are created first, whatever their place; a resource naming no namespace takes --namespace', () => {
  writeTree(root, {
    'one/a.json': JSON.stringify(CHECK('disk', 'ops')) + JSON.stringify(CHECK('load')),
    'one/b.yaml': 'type: Namespace\napi_version: core/v2\nmetadata:\n  name: ops\nspec:\n  name: ops\n',
  });
  const created = cli(['create', '-f', join(root, 'one'), '--namespace', 'ops']);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout, 'applied 3 of 3 resources\n');
  const dumped = cli(['dump', 'CheckConfig,namespaces', '--namespace', 'ops', '--format', 'wrapped-json']);
  assert.equal(dumped.code, 0, dumped.stderr);
  const documents = parseResources(dumped.stdout, 'dump');
  assert.deepEqual(
    documents.filter((d) => d.type === 'CheckConfig').map((d) => [d.metadata.name, d.metadata.namespace, d.spec.command]),
    [
      ['disk', 'ops', 'true'],
      ['load', 'ops', 'true'],
    ],
  );
  assert.ok(documents.some((d) => d.type === 'Namespace' && d.metadata.name === 'ops' && d.spec.name === 'ops'));
});

test('a resource of no known type is reported by its place and name; the others still apply; exit 1', () => {
  writeTree(root, {
    'two/a.yaml':
      'type: Bogus\nmetadata:\n  name: odd\n---\n' + 'type: Handler\napi_version: core/v2\nmetadata:\n  name: mail\nspec:\n  type: pipe\n  command: "true"\n',
  });
  const created = cli(['create', '-f', join(root, 'two', 'a.yaml')]);
  assert.equal(created.code, 1);
  assert.equal(created.stdout, 'applied 1 of 2 resources\n');
  assert.match(created.stderr, /resource #1 with name "odd": unknown type core\/v2\.Bogus\n/);
  assert.match(created.stderr, /checkbridge: runtime failure: 1 resources failed\n$/);
});

test('a cluster-wide kind is PUT to its collection and dumped back wrapped, ready for create -f', () => {
  writeTree(root, {
    'three/role.yaml':
      'type: ClusterRole\napi_version: core/v2\nmetadata:\n  name: readers\nspec:\n  rules:\n    - verbs: [get, list]\n      resources: [checks]\n',
  });
  const created = cli(['create', '-f', join(root, 'three')]);
  assert.equal(created.code, 0, created.stderr);
  const dumped = cli(['dump', 'clusterroles']);
  assert.equal(dumped.code, 0, dumped.stderr);
  const readers = parseResources(dumped.stdout, 'dump').find((d) => d.metadata?.name === 'readers');
  assert.ok(readers, dumped.stdout);
  assert.equal(readers.type, 'ClusterRole');
  assert.equal(readers.api_version, 'core/v2');
  assert.deepEqual(readers.spec.rules[0].verbs, ['get', 'list']);
});

test('dump of a type it does not know is a usage error', () => {
  const dumped = cli(['dump', 'widgets']);
  assert.equal(dumped.code, 64);
  assert.match(dumped.stderr, /checkbridge: invalid usage: unknown type widgets\n$/);
});
