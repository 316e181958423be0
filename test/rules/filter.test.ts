import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterProblem } from '../../src/rules/filter.js';

test("an EventFilter's rules: allow or deny, one or more expressions that parse", () => {
  assert.equal(filterProblem({ action: 'deny', expressions: ['event.check.status == 0'] }), null);
  assert.equal(filterProblem({ action: 'nope', expressions: ['true'] }), 'action "nope" is not valid: allow or deny');
  assert.equal(filterProblem({ expressions: ['true'] }), 'action "" is not valid: allow or deny');
  assert.equal(filterProblem({ action: 'allow', expressions: [] }), 'expressions: a filter must have one or more expressions');
  assert.match(filterProblem({ action: 'allow', expressions: ['event ==='] })!, /^expressions\[0\] is not a valid JavaScript expression: /);
});
