import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expressionsProblem } from '../../src/rules/expressions.js';

test('expressions are parsed, never run; the first that does not parse is named by its index', () => {
  assert.equal(expressionsProblem('expressions', ['event.check.status == 0', 'var x = 1; x > 0']), null);
  assert.equal(expressionsProblem('expressions', undefined), null);
  assert.match(expressionsProblem('expressions', ['true', 'event.check ==='])!, /^expressions\[1\] is not a valid JavaScript expression: /);
  // Parsing a loop that would never end returns at once.
  assert.equal(expressionsProblem('expressions', ['while (true) {}']), null);
});
