// The fields a list's fieldSelector and labelSelector read on each kind, as Sensu Go's *Fields functions give them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APIKEY_FIELDS,
  NAMESPACE_FIELDS,
  RBAC_FIELDS,
  RESOURCE_FIELDS,
  SECRET_FIELDS,
  USER_FIELDS,
  fieldSet,
  selectorValue,
} from '../../src/v2/resource-fields.js';

const plain = (record: Record<string, string>) => ({ ...record });

test('a selector value: lists joined by commas, nothing as the empty string, anything else as text', () => {
  assert.deepEqual([['a', 'b'], [], undefined, null, true, 0, 'x'].map(selectorValue), ['a,b', '', '', '', 'true', '0', 'x']);
});

test("a field set names its fields under its prefix and reads them, with the item's labels as fields and as bare keys", () => {
  const set = fieldSet('item', { name: (i) => i.metadata?.name, tags: (i) => i.tags });
  assert.equal(set.prefix, 'item');
  assert.deepEqual(set.names, ['item.name', 'item.tags']);
  const item = { metadata: { name: 'a', labels: { env: 'prod', n: 3 } }, tags: ['x', 'y'] };
  assert.deepEqual(plain(set.fields(item)), { 'item.name': 'a', 'item.tags': 'x,y', 'item.labels.env': 'prod', 'item.labels.n': '3' });
  assert.deepEqual(plain(set.labels(item)), { env: 'prod', n: '3' });
  assert.deepEqual(plain(set.fields({})), { 'item.name': '', 'item.tags': '' });
  // Labels named like Object's own properties are the item's, not the prototype's.
  assert.equal(set.labels({ metadata: { labels: {} } }).toString, undefined);
});

test('a check: its lists and flags read with their defaults when absent', () => {
  const checks = RESOURCE_FIELDS.get('checks')!;
  assert.deepEqual(plain(checks.fields({ metadata: { name: 'cpu', namespace: 'ops' }, subscriptions: ['linux', 'web'], publish: true })), {
    'check.name': 'cpu',
    'check.namespace': 'ops',
    'check.handlers': '',
    'check.publish': 'true',
    'check.round_robin': 'false',
    'check.runtime_assets': '',
    'check.subscriptions': 'linux,web',
  });
});

test("an entity's system fields and a role binding's role reference are read from their nested objects", () => {
  const entity = RESOURCE_FIELDS.get('entities')!.fields({
    metadata: { name: 'e' },
    entity_class: 'agent',
    system: { arch: 'amd64', os: 'linux', platform: 'ubuntu', platform_family: 'debian' },
  });
  assert.deepEqual(
    [
      entity['entity.entity_class'],
      entity['entity.deregister'],
      entity['entity.system.arch'],
      entity['entity.system.os'],
      entity['entity.system.platform_family'],
    ],
    ['agent', 'false', 'amd64', 'linux', 'debian'],
  );
  const binding = RESOURCE_FIELDS.get('rolebindings')!.fields({ metadata: { name: 'b' }, role_ref: { name: 'admin', type: 'Role' } });
  assert.deepEqual([binding['rolebinding.role_ref.name'], binding['rolebinding.role_ref.type']], ['admin', 'Role']);
  const cluster = RBAC_FIELDS.get('clusterrolebindings')!;
  assert.deepEqual(cluster.names, ['clusterrolebinding.name', 'clusterrolebinding.role_ref.name', 'clusterrolebinding.role_ref.type']);
});

test('every namespaced kind is listed by its URL segment, the cluster-wide RBAC kinds apart', () => {
  assert.deepEqual(
    [...RESOURCE_FIELDS.keys()],
    ['checks', 'entities', 'handlers', 'hooks', 'filters', 'mutators', 'silenced', 'pipelines', 'assets', 'roles', 'rolebindings'],
  );
  assert.deepEqual([...RBAC_FIELDS.keys()], ['clusterroles', 'clusterrolebindings']);
});

test('namespaces and users have no labels to select; API keys, secrets read their own fields', () => {
  assert.deepEqual(plain(NAMESPACE_FIELDS.fields({ name: 'ops', metadata: { labels: { a: 'b' } } })), { 'namespace.name': 'ops' });
  assert.deepEqual(plain(USER_FIELDS.labels({ metadata: { labels: { a: 'b' } } })), {});
  assert.deepEqual(plain(USER_FIELDS.fields({ username: 'u', groups: ['ops', 'dev'] })), {
    'user.username': 'u',
    'user.disabled': 'false',
    'user.groups': 'ops,dev',
  });
  assert.deepEqual(plain(APIKEY_FIELDS.fields({ metadata: { name: 'k' }, username: 'u' })), { 'apikey.name': 'k', 'apikey.username': 'u' });
  assert.deepEqual(plain(SECRET_FIELDS.fields({ metadata: { name: 's', namespace: 'ops' }, spec: { provider: 'env', id: 'TOKEN' } })), {
    'secret.name': 's',
    'secret.namespace': 'ops',
    'secret.provider': 'env',
    'secret.id': 'TOKEN',
  });
});
