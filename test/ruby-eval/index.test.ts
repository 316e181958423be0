// The legacy `eval:` attribute: a Ruby expression subset, evaluated without Ruby.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalAttribute, expressionProblem } from '../../src/ruby-eval/index.js';

const run = (expression: string, value: unknown, object: Record<string, unknown> = {}) => evalAttribute(`eval: ${expression}`, value, object);
const matched = (expression: string, value: unknown, object: Record<string, unknown> = {}) => {
  const outcome = run(expression, value, object);
  assert.ok(outcome.ok, `${expression}: ${!outcome.ok ? outcome.error : ''}`);
  return outcome.matched;
};

test('the idioms of real configurations evaluate as Ruby would', () => {
  assert.equal(matched('value.include?("http")', ['linux', 'http-lb']), false);
  assert.equal(matched('value.include?("http")', ['linux', 'http']), true);
  assert.equal(matched('value.include?("http")', 'my-http-server'), true);
  assert.equal(matched('value[-1] == value[-2]', ['0', '2', '2']), true);
  assert.equal(matched('value[-1] == value[-2]', ['2', '0']), false);
  assert.equal(matched('value[-1] == value[-2]', []), true, 'nil == nil');
  assert.equal(matched('value == 2', 2), true);
  assert.equal(matched('value % 515 == 0', 1030), true);
  assert.equal(matched('value % 515 == 0', 1031), false);
});

test('the reference filter vector: value == 3 || value % 60 == 0, with a token default', () => {
  const event = { check: { occurrences: 3 } };
  assert.equal(matched('value == :::check.occurrences|1::: || value % 60 == 0', 3, event), true);
  assert.equal(matched('value == :::check.occurrences|1::: || value % 60 == 0', 120, event), true);
  assert.equal(matched('value == :::check.missing|3::: || value % 60 == 0', 3, event), true);
  assert.equal(matched('value == 3 || value % 60 == 0', 61, event), false);
  const unmatched = run('value == :::check.missing:::', 3, event);
  assert.equal(unmatched.ok, false);
});

test('Ruby truthiness, integer arithmetic and comparisons', () => {
  assert.equal(matched('value', 0), true, '0 is truthy in Ruby');
  assert.equal(matched('value', ''), true);
  assert.equal(matched('value', null), false);
  assert.equal(matched('!value', false), true);
  assert.equal(matched('value / 2 == 3', 7), true);
  assert.equal(matched('value % 5 == 3', -7), true, 'modulo follows the divisor');
  assert.equal(matched('value > 10 && value <= 20', 15), true);
  assert.equal(matched('value >= 1 and not value.nil?', 1), true);
  assert.equal(matched('value.to_i > 5', '12abc'), true);
  assert.equal(matched('value =~ /^web-\\d+$/', 'web-12'), true);
  assert.equal(matched('value =~ /^WEB/i', 'web-12'), true);
  assert.equal(matched('value !~ /db/', 'web-12'), true);
  assert.equal(matched('value =~ /\\Aweb\\z/', 'web'), true);
  assert.equal(matched('value.all? { |s| s.start_with?("x") }', ['xa', 'xb']), true);
  assert.equal(matched('value.any? { |s| s == "b" }', ['a', 'b']), true);
  assert.equal(matched('["prod", "staging"].include?(value)', 'prod'), true);
  assert.equal(matched('value.nil? || value.empty?', []), true);
  assert.equal(matched('value["env"] == "prod"', { env: 'prod' }), true);
});

test('errors are reported, not thrown: wrong types, division by zero, syntax', () => {
  for (const [expression, value] of [
    ['value > 1', 'a'],
    ['value % 0 == 1', 5],
    ['value.include?(', 1],
    ['value.foo', 1],
  ] as const) {
    const outcome = run(expression, value);
    assert.equal(outcome.ok, false, expression);
  }
});

test('expressions outside the subset are named; the subset passes', () => {
  assert.equal(expressionProblem('eval: value.include?("http")'), null);
  assert.equal(expressionProblem('eval: value == :::check.x|3:::'), null);
  assert.match(expressionProblem('eval: system("rm -rf /")')!, /unknown name 'system'/);
  assert.match(expressionProblem('eval: value.send(:exit)')!, /unexpected character ':'/);
  assert.match(expressionProblem('eval: value.instance_eval("x")')!, /unsupported method 'instance_eval'/);
  assert.match(expressionProblem('eval: "#{value}"')!, /interpolation/);
  assert.match(expressionProblem('eval: File.read("/etc/passwd")')!, /unknown name 'File'/);
});
