import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pipelineProblem } from '../../src/rules/pipeline.js';

const ref = (name: string, type: string) => ({ name, type, api_version: 'core/v2' });
const one = (workflow: Record<string, unknown>) => pipelineProblem({ workflows: [workflow] });

test("a Pipeline's rules: each workflow named, a handler, every reference named and of its kind", () => {
  assert.equal(pipelineProblem({}), null);
  assert.equal(one({ name: 'w', handler: ref('h', 'Handler'), filters: [ref('f', 'EventFilter')], mutator: ref('m', 'Mutator') }), null);
  assert.equal(one({ handler: ref('h', 'Handler') }), 'workflows[0].name must not be empty');
  assert.equal(one({ name: 'a b', handler: ref('h', 'Handler') }), 'workflows[0].name must be 1 to 255 letters, digits, _ . - : (not . or ..)');
  assert.equal(one({ name: 'w' }), 'workflows[0].handler must be set');
  assert.equal(one({ name: 'w', handler: { name: 'h' } }), 'workflows[0].handler.type must be set');
  assert.equal(one({ name: 'w', handler: { name: 'h', type: 'Handler' } }), 'workflows[0].handler.api_version must be set');
  assert.equal(one({ name: 'w', handler: ref('h', 'Nope') }), 'workflows[0].handler: resource type not capable of handling events: core/v2.Nope');
  assert.equal(
    one({ name: 'w', handler: ref('h', 'Handler'), filters: [ref('f', 'EventFilter'), ref('g', 'Handler')] }),
    'workflows[0].filters[1]: resource type not capable of filtering events: core/v2.Handler',
  );
  assert.equal(one({ name: 'w', handler: ref('h', 'Handler'), mutator: ref('', 'Mutator') }), 'workflows[0].mutator.name must not be empty');
});
