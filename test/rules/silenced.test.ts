import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silencedProblem } from '../../src/rules/silenced.js';

test("a Silenced entry's rules: what it silences, whole seconds", () => {
  assert.equal(silencedProblem({ subscription: 'linux' }), null);
  assert.equal(silencedProblem({ check: 'disk', expire: 60, begin: 1700000000 }), null);
  assert.equal(silencedProblem({}), 'must provide check or subscription');
  assert.equal(silencedProblem({ check: 'disk', expire: 1.5 }), 'expire must be an integer (seconds; 0 or less: no expiration)');
  assert.equal(silencedProblem({ check: 'disk', begin: 'now' }), 'begin must be an integer (Unix seconds)');
});
