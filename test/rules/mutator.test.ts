import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mutatorProblem } from '../../src/rules/mutator.js';

test("a Mutator's rules: a command or, for javascript, an eval; its type one of Sensu Go's", () => {
  assert.equal(mutatorProblem({ command: 'cat' }), null);
  assert.equal(mutatorProblem({ type: 'javascript', eval: 'return event' }), null);
  assert.equal(mutatorProblem({ type: 'pipe' }), 'mutator command or eval must be set');
  assert.equal(mutatorProblem({ type: 'javascript', command: 'x' }), 'command used with a javascript mutator: give the script as eval');
  assert.equal(mutatorProblem({ type: 'bogus', command: 'x' }), 'invalid mutator type "bogus": one of pipe, javascript');
});
