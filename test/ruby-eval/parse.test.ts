// The Ruby subset of legacy `eval:` attributes parsed into a tree; anything outside it refused with where and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExpressionError, parseExpression } from '../../src/ruby-eval/parse.js';

const value = { kind: 'var', name: 'value' };
const lit = (v: unknown) => ({ kind: 'literal', value: v });

test('operators bind as in Ruby: * and % before + and ==, == before ||, `and`/`not` as && and !', () => {
  assert.deepEqual(parseExpression('value == 3 || value % 60 == 0'), {
    kind: 'binary',
    op: '||',
    left: { kind: 'binary', op: '==', left: value, right: lit(3) },
    right: { kind: 'binary', op: '==', left: { kind: 'binary', op: '%', left: value, right: lit(60) }, right: lit(0) },
  });
  assert.deepEqual(parseExpression('1 + 2 * 3'), { kind: 'binary', op: '+', left: lit(1), right: { kind: 'binary', op: '*', left: lit(2), right: lit(3) } });
  assert.deepEqual(parseExpression('value and not value'), { kind: 'binary', op: '&&', left: value, right: { kind: 'not', operand: value } });
  assert.deepEqual(parseExpression('-value'), { kind: 'neg', operand: value });
});

test('literals: numbers, strings (escapes in double quotes only), nil, true, arrays, regular expressions', () => {
  assert.deepEqual(parseExpression('[1, "a", nil, true]'), { kind: 'array', items: [lit(1), lit('a'), lit(null), lit(true)] });
  assert.deepEqual(parseExpression('"a\\nb"'), lit('a\nb'));
  assert.deepEqual(parseExpression("'a\\nb'"), lit('a\\nb'));
  assert.deepEqual(parseExpression('value =~ /ab+/i'), { kind: 'binary', op: '=~', left: value, right: { kind: 'regex', source: 'ab+', flags: 'i' } });
  assert.deepEqual(parseExpression('10 / 2'), { kind: 'binary', op: '/', left: lit(10), right: lit(2) }, 'a / after an operand divides');
});

test('indexing, method calls with arguments, and blocks with one parameter', () => {
  assert.deepEqual(parseExpression('value[-1]'), { kind: 'index', target: value, index: { kind: 'neg', operand: lit(1) } });
  assert.deepEqual(parseExpression('value.include?("x")'), { kind: 'call', target: value, method: 'include?', args: [lit('x')], block: null });
  assert.deepEqual(parseExpression('value.size'), { kind: 'call', target: value, method: 'size', args: [], block: null });
  assert.deepEqual(parseExpression('value.any? { |v| v > 2 }'), {
    kind: 'call',
    target: value,
    method: 'any?',
    args: [],
    block: { param: 'v', body: { kind: 'binary', op: '>', left: { kind: 'var', name: 'v' }, right: lit(2) } },
  });
});

test('what is outside the subset is refused, saying what and where', () => {
  const refused: [string, string][] = [
    ['x', "unknown name 'x' at 0: only value (and block parameters) can be read"],
    ['value.any? { |v| w }', "unknown name 'w' at 17: only value (and block parameters) can be read"],
    ['"#{x}"', 'string interpolation is not supported (at 1)'],
    ['"abc', 'unterminated string starting at 0'],
    ['/ab', 'unterminated regular expression starting at 0'],
    ['value @', "unexpected character '@' at 6"],
    [':sym', "unexpected character ':' at 0"],
    ['value.', 'expected a method name at 6'],
    ['value.map { 1 }', "unexpected '1' at 12"],
    ['(1', 'unexpected end of expression'],
    ['value 1', "unexpected '1' at 6"],
    ['`rm -rf /`', "unexpected character '`' at 0"],
  ];
  for (const [source, message] of refused) {
    assert.throws(
      () => parseExpression(source),
      (error: unknown) => error instanceof ExpressionError && error.message === message,
      `${source}: ${message}`,
    );
  }
});
