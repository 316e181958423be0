// The values of the Ruby subset `eval:` attributes use: equality, comparison, arithmetic and conversions as Ruby's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arithmetic, compare, rubyEqual, toF, toI, truthy, typeName } from '../../src/ruby-eval/values.js';
import { ExpressionError } from '../../src/ruby-eval/parse.js';

const refused = (fn: () => unknown, message: string) =>
  assert.throws(fn, (error: unknown) => error instanceof ExpressionError && error.message === message, message);

test('type names, truthiness and equality as Ruby has them', () => {
  assert.deepEqual([null, [], 'a', 1, 1.5, true, false, /a/, {}].map(typeName), [
    'nil',
    'Array',
    'String',
    'Integer',
    'Float',
    'trueClass',
    'falseClass',
    'Regexp',
    'Hash',
  ]);
  assert.deepEqual([null, undefined, false, 0, '', []].map(truthy), [false, false, false, true, true, true], '0 and "" are true');
  assert.equal(rubyEqual(null, undefined), true);
  assert.equal(rubyEqual([1, { a: [2] }], [1, { a: [2] }]), true);
  assert.equal(rubyEqual({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(rubyEqual({ a: undefined }, { b: undefined }), false);
  assert.equal(rubyEqual(1, '1'), false);
});

test('comparison: numbers with numbers, strings with strings; anything else fails as Ruby says it', () => {
  assert.equal(compare('<', 1, 2), true);
  assert.equal(compare('>=', 'b', 'a'), true);
  assert.equal(compare('<=', 2, 2), true);
  refused(() => compare('<', 1, 'a'), 'comparison of Integer with "a" failed');
  refused(() => compare('>', null, 1), 'comparison of nil with 1 failed');
});

test('arithmetic: integer division and modulo floor, as Ruby does; strings and arrays; errors named', () => {
  assert.deepEqual([arithmetic('/', 7, 2), arithmetic('/', -7, 2), arithmetic('%', -7, 3), arithmetic('%', 7, -3)], [3, -4, 2, -2]);
  assert.equal(arithmetic('/', 7.0, 2.5), 2.8);
  assert.equal(arithmetic('%', 7.5, 2), 1.5);
  assert.equal(arithmetic('+', 'ab', 'c'), 'abc');
  assert.equal(arithmetic('*', 'ab', 3), 'ababab');
  assert.deepEqual(arithmetic('-', [1, 2, 2, 3], [2]), [1, 3]);
  assert.deepEqual(arithmetic('+', [1], [[2]]), [1, [2]]);
  refused(() => arithmetic('/', 1, 0), 'divided by 0');
  refused(() => arithmetic('%', 1, 0), 'divided by 0');
  refused(() => arithmetic('+', 'a', 1), "undefined method '+' for String with Integer");
  refused(() => arithmetic('*', 'a', -1), "undefined method '*' for String with Integer");
});

test('to_i and to_f read a leading number, as Ruby does, and 0 when there is none', () => {
  assert.deepEqual(['42abc', ' -7', '1_000', 'x', '', '3.9'].map(toI), [42, -7, 1000, 0, 0, 3]);
  assert.deepEqual([null, 3.9, -3.9].map(toI), [0, 3, -3]);
  assert.deepEqual(['1.5e3x', '2.5', '.5', '7'].map(toF), [1500, 2.5, 0, 7]);
  refused(() => toI([1]), "undefined method 'to_i' for Array");
  refused(() => toF({}), "undefined method 'to_f' for Hash");
});
