// A compiled v2 resource: core/v2, its metadata holding only what is set, and the order kinds are emitted in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND_ORDER, LEGACY_ANNOTATION, resource } from '../../src/compile/model.js';

test('a resource with a namespace, labels and annotations', () => {
  assert.deepEqual(resource('CheckConfig', 'disk', 'ops', { command: 'x' }, { note: 'n' }, { tier: 'db' }), {
    type: 'CheckConfig',
    api_version: 'core/v2',
    metadata: { name: 'disk', namespace: 'ops', labels: { tier: 'db' }, annotations: { note: 'n' } },
    spec: { command: 'x' },
  });
});

test('a cluster-wide resource, or one without labels and annotations, leaves them out', () => {
  assert.deepEqual(resource('Namespace', 'ops', null, { name: 'ops' }).metadata, { name: 'ops' });
  assert.deepEqual(resource('Handler', 'mail', '', {}, {}, {}).metadata, { name: 'mail' });
});

test('dependencies are emitted before what uses them', () => {
  const before = (a: string, b: string) => assert.ok(KIND_ORDER.indexOf(a) < KIND_ORDER.indexOf(b), `${a} before ${b}`);
  before('Namespace', 'CheckConfig');
  before('Asset', 'CheckConfig');
  before('HookConfig', 'CheckConfig');
  before('EventFilter', 'Pipeline');
  before('Mutator', 'Handler');
  before('Handler', 'Pipeline');
  before('Pipeline', 'CheckConfig');
  assert.equal(new Set(KIND_ORDER).size, KIND_ORDER.length);
  assert.equal(LEGACY_ANNOTATION, 'checkbridge.io/legacy-attributes');
});
