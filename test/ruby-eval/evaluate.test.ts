// The `eval:` subset evaluated as Ruby would: methods per type, Ruby's regexps, nil-safe indexing, Ruby's errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateNode, METHODS } from '../../src/ruby-eval/evaluate.js';
import { ExpressionError, parseExpression } from '../../src/ruby-eval/parse.js';

const run = (source: string, value: unknown = null) => evaluateNode(parseExpression(source), { value: value as never });
const refused = (source: string, value: unknown, message: string) =>
  assert.throws(
    () => run(source, value),
    (error: unknown) => error instanceof ExpressionError && error.message === message,
    source,
  );

test('strings: inclusion, prefixes, case, length in characters, splitting', () => {
  assert.equal(run('value.include?("http")', 'my-http-server'), true);
  assert.equal(run('value.start_with?("x", "my")', 'my-host'), true);
  assert.equal(run('value.end_with?(1)', 'my-host'), false);
  assert.equal(run('value.downcase + value.upcase', 'Ab'), 'abAB');
  assert.equal(run('value.strip.length', '  é!  '), 2);
  assert.deepEqual(run('value.split', ' a  b\tc '), ['a', 'b', 'c']);
  assert.deepEqual(run('value.split(",")', 'a,b'), ['a', 'b']);
  assert.equal(run('value.match?(/^b/)', 'a\nb'), true, '^ is a line anchor in Ruby');
  assert.equal(run('value =~ /\\Ab/', 'a\nb'), null, '\\A is the start of the string');
  assert.equal(run('value =~ /B/i', 'aB'), 1);
  assert.equal(run('value !~ /z/', 'aB'), true);
  assert.equal(run('value =~ /\\h+\\z/', 'id-ff'), 3);
});

test('numbers: predicates, rounding, ranges, arithmetic and comparisons', () => {
  assert.equal(run('value.even? && value.positive? && !value.zero?', 4), true);
  assert.equal(run('value.odd?', -3), true);
  assert.equal(run('value.between?(1, 5)', 5), true);
  assert.deepEqual([run('value.round', 2.5), run('value.floor', 2.5), run('value.ceil', 2.1), run('value.abs', -2)], [3, 2, 3, 2]);
  assert.equal(run('value % 515 == 0', 1030), true);
  assert.equal(run('-value', 3), -3);
});

test('arrays: blocks, counting, ends, aggregation, negative indexes', () => {
  assert.equal(run('value.any? { |v| v > 2 }', [1, 3]), true);
  assert.equal(run('value.all? { |v| v > 2 }', [1, 3]), false);
  assert.equal(run('value.none? { |v| v > 5 }', [1, 3]), true);
  assert.equal(run('value.count { |v| v.odd? }', [1, 2, 3]), 2);
  assert.equal(run('value.count(2)', [2, 2, 3]), 2);
  assert.deepEqual(run('value.select { |v| v > 1 }.map { |v| v * 10 }', [1, 2, 3]), [20, 30]);
  assert.deepEqual(run('value.reject { |v| v > 1 }', [1, 2, 3]), [1]);
  assert.deepEqual([run('value.min', [3, 1, 2]), run('value.max', [3, 1, 2]), run('value.sum', [3, 1, 2])], [1, 3, 6]);
  assert.deepEqual(run('value.uniq.sort', [3, 1, 3, 2]), [1, 2, 3]);
  assert.equal(run('value.join("-")', ['a', null, 1]), 'a--1');
  assert.deepEqual([run('value.first', []), run('value.last', [1, 2]), run('value[-1] == value[-2]', [])], [null, 2, true]);
  assert.equal(run('value.include?("http")', ['linux', 'http-lb']), false, 'an element, not a substring');
});

test('hashes: keys, values, indexing; nil answers nil?, to_s, to_a', () => {
  const hash = { a: 1, b: 2 };
  assert.equal(run('value.key?("a") && value.has_key?("b") && !value.include?("c")', hash), true);
  assert.deepEqual([run('value.keys', hash), run('value.values', hash), run('value.size', hash)], [['a', 'b'], [1, 2], 2]);
  assert.equal(run('value["b"]', hash), 2);
  assert.equal(run('value["c"]', hash), null);
  assert.deepEqual([run('value.nil?'), run('value.to_s'), run('value.to_a'), run('value.inspect')], [true, '', [], 'nil']);
  assert.equal(run('value.to_i + 1', '41abc'), 42);
});

test('&& and || return an operand and short-circuit, as in Ruby', () => {
  assert.equal(run('value || "default"', null), 'default');
  assert.equal(run('value && value.size', null), null, 'the right side is not evaluated');
  assert.equal(run('value && value.size', 'abc'), 3);
});

test('errors say what Ruby would', () => {
  refused('value.size', 5, "undefined method 'size' for Integer");
  refused('value.upcase', null, "undefined method 'upcase' for nil");
  refused('value[0]', 5, "undefined method '[]' for Integer");
  refused('value["a"]', ['x'], 'no implicit conversion of String into Integer');
  refused('value =~ "a"', 'abc', '=~ needs a regular expression, got String and String');
  refused('value =~ /a/', 5, 'no implicit conversion of Integer into String');
  refused('value.include?(1)', 'abc', 'no implicit conversion of Integer into String');
});

test('the method list is what the subset evaluates', () => {
  for (const method of ['include?', 'any?', 'key?', 'to_s', 'split']) assert.ok(METHODS.has(method), method);
  assert.equal(METHODS.has('send'), false);
  assert.equal(METHODS.has('instance_eval'), false);
});

test('a hash has only its own keys, as in Ruby: no member of JavaScript objects is found', () => {
  assert.equal(run('value.key?("toString")', { a: 1 }), false);
  assert.equal(run('value.include?("__proto__")', { a: 1 }), false);
  assert.equal(run('value.has_key?("a")', { a: 1 }), true);
  assert.equal(run('value["constructor"]', { a: 1 }), null);
  assert.equal(run('value["a"]', { a: 1 }), 1);
});
