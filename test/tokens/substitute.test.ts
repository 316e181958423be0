import { test } from 'node:test';
import assert from 'node:assert/strict';
import { substituteTokens, substituteObject, unmatchedTokensOutput } from '../../src/tokens/index.js';

// The attributes of the legacy token vectors.
const attributes = {
  name: 'i-1',
  num: 42,
  flag: false,
  list: ['a', 'b'],
  nested: { a: { b: 'deep' } },
  empty: {},
  f: 1.5,
  nilv: null,
  str: 'x',
};

const vectors: [string, string, string[]][] = [
  [':::name:::', 'i-1', []],
  [':::num:::', '42', []],
  [':::flag:::', 'false', []],
  [':::list:::', '["a", "b"]', []],
  [':::nested:::', '', ['nested']],
  [':::nested.a.b:::', 'deep', []],
  [':::nested.a.b.c:::', 'deep', []],
  [':::str.foo:::', 'x', []],
  [':::missing|d:::', 'd', []],
  [':::missing|:::', '', []],
  [':::missing:::', '', ['missing']],
  [':::nilv|dflt:::', 'dflt', []],
  [':::f:::', '1.5', []],
  ['::::name:::', ':i-1', []],
  [':::name::::', 'i-1:', []],
  ['a:::name:::b:::num:::c', 'ai-1b42c', []],
  [':::a|b|c:::', 'b|c', []],
  [':::list.0:::', '["a", "b"]', []],
  [':::nested|x:::', 'x', []],
];

for (const [input, output, unmatched] of vectors) {
  test(`substitutes ${input}`, () => {
    const result = substituteTokens(input, attributes);
    assert.equal(result.value, output);
    assert.deepEqual(result.unmatched, unmatched);
  });
}

test('keeps UTF-8 text (legacy stripped non-ASCII bytes)', () => {
  assert.equal(substituteTokens('café :::name:::', attributes).value, 'café i-1');
});

test('the legacy utilities_spec dot-notation vector', () => {
  const input =
    ':::nested.attribute|default::: :::missing|default::: :::missing|::: :::missing::: :::nested.attribute:::::::nested.attribute::: :::empty|localhost::: :::empty.hash|localhost:8080::: :::foo\uFFFD|default::: :::empty|default|with_pipe:::';
  const result = substituteTokens(input, { nested: { attribute: true }, empty: {}, foo: true });
  assert.equal(result.value, 'true default   true:true localhost localhost:8080 true default|with_pipe');
  assert.deepEqual(result.unmatched, ['missing']);
});

test('object substitution is deep, keeps non-strings and never mutates its input', () => {
  const input = { command: 'x :::name:::', arr: [':::num:::', 5, { k: ':::missing:::' }], n: 3 };
  const frozen = structuredClone(input);
  const result = substituteObject(input, attributes);
  assert.deepEqual(result.value, { command: 'x i-1', arr: ['42', 5, { k: '' }], n: 3 });
  assert.deepEqual(result.unmatched, ['missing']);
  assert.deepEqual(input, frozen);
});

test('unmatched tokens are listed once each, in order of appearance', () => {
  const result = substituteObject({ a: ':::b::: :::a:::', c: [':::b:::'] }, {});
  assert.deepEqual(result.unmatched, ['b', 'a']);
  assert.equal(unmatchedTokensOutput(result.unmatched), 'Unmatched client token(s): b, a');
});

test('a second run over the same definition still reports unmatched tokens: the definition is never changed in place', () => {
  const definition = { command: 'echo', args: [':::missing_arr:::'] };
  assert.deepEqual(substituteObject(definition, {}).unmatched, ['missing_arr']);
  assert.deepEqual(substituteObject(definition, {}).unmatched, ['missing_arr']);
});
