// An event as Sensu Go serves it: its entity shaped as an entity resource is (one path), its check as a Check is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactedMetadata, serveAs, serveEntity, shapeEvent } from '../../src/v2/index.js';
import type { Json } from '../../src/json.js';

const ENTITY = {
  entity_class: 'agent',
  system: { hostname: 'h', arm_version: 7, float_type: 'hard', network: { interfaces: [{ name: 'eth0' }] } },
  keepalive_handlers: ['kh'],
  metadata: { name: 'e', namespace: 'default', labels: { password: 'p', team: 'ops' } },
};
const CHECK = {
  command: 'true',
  status: 1,
  max_output_size: 1024,
  discard_output: true,
  output_metric_thresholds: [{ name: 'm', thresholds: [{ min: '1', status: 2 }] }],
  subdues: [{ begin: 'b', end: 'e' }],
  hooks: [{ command: 'x', status: 1 }],
  metadata: { name: 'c' },
};

test("an event's entity is served as the entity resource is: every field, keepalive_handlers, arm_version and float_type too, redacted", () => {
  const { entity }: Json = shapeEvent({ id: 'ab', entity: ENTITY, check: CHECK });
  assert.deepEqual(entity, serveAs('Entity', { ...ENTITY, metadata: redactedMetadata(ENTITY) }));
  assert.deepEqual(entity, serveEntity(ENTITY));
  const served: Json = entity;
  assert.deepEqual(served.keepalive_handlers, ['kh']);
  assert.deepEqual([served.system.arm_version, served.system.float_type], [7, 'hard']);
  assert.deepEqual(served.metadata.labels, { password: 'REDACTED', team: 'ops' });
  assert.deepEqual(served.system.network.interfaces, [{ name: 'eth0', addresses: null }]);
});

test("an event's check is served with every field of a Check: max_output_size, discard_output, thresholds, subdues and each hook's fields", () => {
  const check = shapeEvent({ id: 'ab', entity: ENTITY, check: CHECK }).check!;
  assert.deepEqual([check.max_output_size, check.discard_output], [1024, true]);
  assert.deepEqual(check.output_metric_thresholds, [{ name: 'm', tags: null, thresholds: [{ min: '1', max: '', status: 2 }], null_status: 0 }]);
  assert.deepEqual(check.subdues, [{ begin: 'b', end: 'e', repeat: null }]);
  assert.deepEqual(check.hooks, [{ metadata: {}, command: 'x', timeout: 0, stdin: false, runtime_assets: null, executed: 0, issued: 0, status: 1 }]);
});

test('with an id, the top-level keys are sorted as Go writes them; without, in the type order; the id is null when unset', () => {
  assert.deepEqual(Object.keys(shapeEvent({ id: 'ab', timestamp: 5 })), ['id', 'metadata', 'pipelines', 'sequence', 'timestamp']);
  const unnamed = shapeEvent({ timestamp: 5 });
  assert.deepEqual(Object.keys(unnamed), ['timestamp', 'metadata', 'id', 'sequence', 'pipelines']);
  assert.deepEqual(unnamed, { timestamp: 5, metadata: {}, id: null, sequence: 0, pipelines: null });
});
