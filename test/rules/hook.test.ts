import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hookProblem } from '../../src/rules/hook.js';

test("a HookConfig's rules: a command, a timeout above 0", () => {
  assert.equal(hookProblem({ command: 'true', timeout: 10 }), null);
  assert.equal(hookProblem({ command: '', timeout: 10 }), 'command cannot be empty');
  assert.equal(hookProblem({ command: 'true' }), 'timeout: a hook timeout must be greater than 0');
  assert.equal(hookProblem({ command: 'true', timeout: 0 }), 'timeout: a hook timeout must be greater than 0');
});
