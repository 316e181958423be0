// What Sensu Go's JavaScript engine (otto: ECMAScript 5, Go's RE2 regular expressions) accepts of compiled filters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { es5ExpressionProblem, rubyRegexToJs } from '../../src/compile/js-dialect.js';

const otto = (what: string) => `${what}: not supported by Sensu Go's JavaScript engine (otto translates to Go regular expressions)`;

test('Ruby regular expressions: \\A and \\z become ^ and $ (not when escaped); only the i flag is kept', () => {
  assert.deepEqual(rubyRegexToJs('\\Afoo\\z', ''), { source: '^foo$', flags: '' });
  assert.deepEqual(rubyRegexToJs('\\Afoo\\z', 'i'), { source: '^foo$', flags: 'i' });
  assert.deepEqual(rubyRegexToJs('a\\\\Ab', ''), { source: 'a\\\\Ab', flags: '' }, 'an escaped backslash, then a plain A');
  assert.deepEqual(rubyRegexToJs('^disk-\\d+$', 'o'), { source: '^disk-\\d+$', flags: '' });
});

test('Ruby-only constructs and flags, and what RE2 lacks, are named', () => {
  assert.deepEqual(rubyRegexToJs('\\h+', ''), { problem: 'Ruby-only construct \\h has no JavaScript equivalent' });
  assert.deepEqual(rubyRegexToJs('[[:alpha:]]', ''), { problem: 'Ruby-only construct [[: has no JavaScript equivalent' });
  assert.deepEqual(rubyRegexToJs('foo', 'x'), { problem: "Ruby flag x has no equivalent in Sensu Go's JavaScript engine" });
  assert.deepEqual(rubyRegexToJs('foo', 'm'), { problem: "Ruby flag m has no equivalent in Sensu Go's JavaScript engine" });
  assert.deepEqual(rubyRegexToJs('(?<=a)b', ''), { problem: otto('lookbehind') });
  assert.deepEqual(rubyRegexToJs('a(?!b)', ''), { problem: otto('lookahead') });
  assert.deepEqual(rubyRegexToJs('(a)\\1', ''), { problem: otto('backreferences') });
  assert.deepEqual(rubyRegexToJs('a++', ''), { problem: otto('possessive quantifiers') });
  assert.deepEqual(rubyRegexToJs('(?>a)', ''), { problem: otto('atomic groups') });
  assert.deepEqual(rubyRegexToJs('[', ''), { problem: 'Invalid regular expression: /[/: Unterminated character class' });
});

test('filter expressions: ES5 passes; later syntax and RE2-less regular expression literals are named', () => {
  assert.equal(es5ExpressionProblem('event.check.status == 2 && event.check.output.match(/\\d+/)'), null);
  assert.equal(es5ExpressionProblem('(() => 1)()'), 'not ECMAScript 5: Unexpected token (1:2)');
  assert.equal(es5ExpressionProblem('`x`'), "not ECMAScript 5: Unexpected character '`' (1:0)");
  assert.equal(es5ExpressionProblem('/(?=a)/.test(event.check.output)'), `regular expression /(?=a)/: ${otto('lookahead')}`);
});
