import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entityProblem } from '../../src/rules/entity.js';

test("an Entity's rules: its class is a name (any, as in Sensu Go)", () => {
  for (const good of ['agent', 'proxy', 'switch', 'foo:bar']) assert.equal(entityProblem({ entity_class: good }), null, good);
  assert.equal(entityProblem({}), 'entity_class must not be empty');
  assert.equal(entityProblem({ entity_class: 'a b' }), 'entity_class must be 1 to 255 letters, digits, _ . - : (not . or ..)');
});
