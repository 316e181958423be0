// synthesizedEntity and matchingEntities: which proxy entities a v2 check request goes to, its entity_attributes run in the real expression sandbox.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchingEntities, synthesizedEntity } from '../../src/scheduling/v2-proxy-entities.js';
import { loadExpressionSandbox } from '../../src/js-sandbox/expressions.js';
import { capturedLogger } from '../helpers/log-capture.js';

before(() => loadExpressionSandbox());

const NOW = Date.parse('2026-11-18T12:00:00.000Z');
const entity = (name: string, labels?: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'ops', ...(labels ? { labels } : {}) },
  entity_class: 'proxy',
  subscriptions: [`entity:${name}`],
  ...extra,
});

test('an entity as expressions see it: metadata fields on top, labels and annotations always maps', () => {
  const synthesized = synthesizedEntity(entity('sw-1', { rack: 'r7' }));
  assert.equal(synthesized.name, 'sw-1');
  assert.equal(synthesized.namespace, 'ops');
  assert.deepEqual(synthesized.labels, { rack: 'r7' });
  assert.deepEqual(synthesized.annotations, {});
  assert.equal(synthesized.entity_class, 'proxy');
  assert.deepEqual(synthesizedEntity({}).labels, {});
});

test('the entities for which every expression holds, in the order given', async () => {
  const { logger } = capturedLogger();
  const entities = [
    entity('sw-2', { rack: 'r7', kind: 'switch' }),
    entity('rt-1', { rack: 'r7', kind: 'router' }),
    entity('sw-1', { rack: 'r7', kind: 'switch' }),
    entity('sw-3'),
  ];
  const matched = await matchingEntities(entities, ['entity.labels.rack == "r7"', 'entity.labels.kind == "switch"'], {
    namespace: 'ops',
    check: 'ping',
    nowMs: NOW,
    log: logger,
  });
  assert.deepEqual(
    matched.map((e) => e.metadata?.name),
    ['sw-2', 'sw-1'],
  );
  assert.equal(matched[0], entities[0], 'the stored entities, not their synthesized views');
});

test('no expressions match every entity; no entities match none', async () => {
  const { logger } = capturedLogger();
  const at = { namespace: 'ops', check: 'ping', nowMs: NOW, log: logger };
  assert.equal((await matchingEntities([entity('a'), entity('b')], [], at)).length, 2);
  assert.deepEqual(await matchingEntities([], ['true'], at), []);
});

test('an expression that fails matches nothing and is logged with the check and the expression', async () => {
  const { logger, lines } = capturedLogger();
  const matched = await matchingEntities([entity('sw-1')], ['entity.labels.nope.deeper == 1'], { namespace: 'ops', check: 'ping', nowMs: NOW, log: logger });
  assert.deepEqual(matched, []);
  const logged = lines.find((l) => l.msg === 'proxy entity_attributes expression failed');
  assert.ok(logged, JSON.stringify(lines));
  assert.deepEqual([logged.namespace, logged.check, logged.expression], ['ops', 'ping', 'entity.labels.nope.deeper == 1']);
});
