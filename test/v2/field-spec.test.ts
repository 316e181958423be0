// The values each Go scalar takes, as encoding/json decodes them, and the shapes of objects and check hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_LISTS, SCALARS, isHookLists, isObject, isScalar } from '../../src/v2/field-spec.js';

const fits = (scalar: keyof typeof SCALARS, values: unknown[]) => values.map((v) => SCALARS[scalar].fits(v));

test('strings and booleans take only their own JSON type', () => {
  assert.deepEqual(fits('string', ['', 'x', 1, null, true]), [true, true, false, false, false]);
  assert.deepEqual(fits('bool', [true, false, 'true', 0, null]), [true, true, false, false, false]);
});

test('integers take whole numbers within their range only', () => {
  assert.deepEqual(fits('int32', [0, -(2 ** 31), 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 1.5, '1']), [true, true, true, false, false, false, false]);
  assert.deepEqual(fits('uint32', [0, 2 ** 32 - 1, 2 ** 32, -1]), [true, true, false, false]);
  // 2 ** 63 is one past Go's largest int64; -(2 ** 63) is its smallest.
  assert.deepEqual(fits('int64', [-(2 ** 63), 2 ** 53, 2 ** 63, 2 ** 64, 0.5]), [true, true, false, false, false]);
});

test('a double takes any finite number', () => {
  assert.deepEqual(fits('double', [0, -1.5, 1e308, Infinity, NaN, '1']), [true, true, true, false, false, false]);
});

test('each scalar says what it takes and names its Go type', () => {
  assert.deepEqual(
    Object.entries(SCALARS).map(([name, s]) => [name, s.says, s.go]),
    [
      ['string', 'a string', 'string'],
      ['bool', 'true or false', 'bool'],
      ['int32', 'a 32-bit integer', 'int32'],
      ['int64', 'a 64-bit integer', 'int64'],
      ['uint32', 'an unsigned 32-bit integer', 'uint32'],
      ['double', 'a number', 'float64'],
    ],
  );
});

test('the scalars are told apart from messages, lists, maps and check hooks', () => {
  assert.equal(isScalar('int64'), true);
  assert.equal(isScalar('map<string,string>'), false);
  assert.equal(isScalar(HOOK_LISTS), false);
  assert.equal(isScalar({ message: 'Check' }), false);
  assert.equal(isScalar({ list: 'string' }), false);
  // Inherited names are not scalars.
  assert.equal(isScalar('toString' as never), false);
});

test('an object is a non-null, non-array object', () => {
  assert.deepEqual([{}, { a: 1 }, [], null, 'x', 1].map(isObject), [true, true, false, false, false, false]);
});

test('check hooks are a list of objects from a status or severity to hook names (or null)', () => {
  assert.equal(isHookLists([]), true);
  assert.equal(isHookLists([{ critical: ['a', 'b'] }, { '1': null }, null]), true);
  assert.equal(isHookLists([{ critical: ['a', null] }]), true);
  assert.equal(isHookLists({ critical: ['a'] }), false, 'not a list');
  assert.equal(isHookLists([{ critical: 'a' }]), false, 'names not in a list');
  assert.equal(isHookLists([{ critical: [1] }]), false, 'a name that is not a string');
  assert.equal(isHookLists([['a']]), false, 'an entry that is not an object');
  assert.equal(isHookLists(null), false);
});
