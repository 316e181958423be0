// The checks behind the configuration schemas' own keywords.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstEvalProblem, nonEmptyStrings, subsetOf, validCron, validTimes } from '../../src/config/schema-keywords.js';

test('validCron and validTimes: what the legacy parsers read', () => {
  assert.equal(validCron('*/5 * * * *'), true);
  assert.equal(validCron('* * * *'), false);
  assert.equal(validCron(5), false);
  assert.equal(validTimes(['begin', 'end'], { begin: '9:00 AM', end: '17:00' }), true);
  assert.equal(validTimes(['begin', 'end'], { begin: '9:00 AM' }), false, 'a missing bound');
  assert.equal(validTimes(['begin'], { begin: '25:00' }), false);
  assert.equal(validTimes(['begin'], 'not an object'), true, 'the type keyword names that');
});

test('nonEmptyStrings: every item a non-empty string, matching the pattern when one is given', () => {
  assert.equal(nonEmptyStrings(true, ['a', 'b']), true);
  assert.equal(nonEmptyStrings(true, ['a', '']), false);
  assert.equal(nonEmptyStrings(true, ['a', 1]), false);
  assert.equal(nonEmptyStrings('^[a-z]+$', ['abc', 'def']), true);
  assert.equal(nonEmptyStrings('^[a-z]+$', ['abc', 'D']), false);
  assert.equal(nonEmptyStrings(true, 'not an array'), true, 'the type keyword names that');
});

test('subsetOf: every item, at any depth, is allowed', () => {
  assert.equal(subsetOf(['a', 'b'], ['a', ['b', ['a']]]), true);
  assert.equal(subsetOf(['a', 'b'], ['a', ['c']]), false);
  assert.equal(subsetOf(['a'], 'c'), true);
});

test('firstEvalProblem: the first eval: string outside the subset, anywhere in the value, is named', () => {
  assert.equal(firstEvalProblem({ a: 'eval: value > 2', b: ['plain', 'eval: value == "x"'] }), null);
  assert.equal(firstEvalProblem('File.read("x")'), null, 'not an eval: string');
  assert.equal(
    firstEvalProblem({ a: [{ b: 'eval: Kernel.exit' }], c: 'eval: `ls`' }),
    `"eval: Kernel.exit": unknown name 'Kernel' at 1: only value (and block parameters) can be read`,
  );
});
