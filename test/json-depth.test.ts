// The nesting bound every door applies before walking a parsed body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEPTH_MESSAGE, MAX_JSON_DEPTH, nestedTooDeep } from '../src/json-depth.js';

/** `depth` arrays or objects, one inside the next, around a scalar. */
function nested(depth: number, as: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = as === 'array' ? [value] : { inner: value };
  return value;
}

test('a scalar is depth 0; each array or object adds one; exactly max passes, one more does not', () => {
  for (const scalar of [null, 1, 'x', true, undefined]) assert.equal(nestedTooDeep(scalar, 0), false);
  assert.equal(nestedTooDeep({}, 0), true);
  assert.equal(nestedTooDeep([], 1), false);
  for (const as of ['array', 'object'] as const) {
    assert.equal(nestedTooDeep(nested(3, as), 3), false, as);
    assert.equal(nestedTooDeep(nested(4, as), 3), true, as);
    assert.equal(nestedTooDeep(nested(MAX_JSON_DEPTH, as)), false, `${as}: the default bound`);
    assert.equal(nestedTooDeep(nested(MAX_JSON_DEPTH + 1, as)), true, `${as}: the default bound`);
  }
});

test('the deepest branch counts, wherever it is, mixing arrays and objects', () => {
  const wide = { a: 1, b: [1, 2, { c: [[{ d: 'deep' }]] }], e: {} };
  assert.equal(nestedTooDeep(wide, 6), false);
  assert.equal(nestedTooDeep(wide, 5), true);
});

test('a body far deeper than the bound is refused without walking it all (no stack overflow)', () => {
  assert.equal(nestedTooDeep(nested(200_000, 'array')), true);
  assert.equal(DEPTH_MESSAGE, 'JSON nested deeper than 100 levels');
});
