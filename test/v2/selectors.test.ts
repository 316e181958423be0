// fieldSelector and labelSelector: parsed into operations, then matched against a flat field set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelFields, matchesSelector, parseSelector, SelectorError } from '../../src/v2/selectors.js';

test('each operator, quoted or bare values, lists, joined by &&', () => {
  assert.deepEqual(parseSelector("entity.name == 'web-1'"), [{ left: 'entity.name', op: '==', right: ['web-1'] }]);
  assert.deepEqual(parseSelector('check.status != 0 && region In [eu, "us west"]'), [
    { left: 'check.status', op: '!=', right: ['0'] },
    { left: 'region', op: 'in', right: ['eu', 'us west'] },
  ]);
  assert.deepEqual(parseSelector('linux notin entity.subscriptions'), [{ left: 'linux', op: 'notin', right: ['entity.subscriptions'] }]);
  assert.deepEqual(parseSelector('address matches 10.0.0.1'), [{ left: 'address', op: 'matches', right: ['10.0.0.1'] }]);
  assert.deepEqual(parseSelector(''), []);
});

test('malformed selectors are refused, saying what was expected', () => {
  const refused: [string, RegExp][] = [
    ["name == 'web", /^unterminated string$/],
    ['name= web', /^bad identifier name$/],
    ['name = web', /^unexpected '='$/],
    ['name ~ web', /^unexpected '~'$/],
    ['name web', /^expected an operator$/],
    ['name ==', /^expected a value$/],
    ['region in [eu, us', /^unterminated list$/],
    ['a == b c == d', /^expected &&$/],
    ['entity. == x', /^bad identifier entity\.$/],
  ];
  for (const [text, message] of refused)
    assert.throws(
      () => parseSelector(text),
      (error: unknown) => error instanceof SelectorError && message.test(error.message),
      text,
    );
});

test('matching: == and in need the field; != and notin pass without it; matches is a substring', () => {
  const fields = { 'entity.name': 'web-1', region: 'eu', 'entity.subscriptions': '[linux, web]' };
  const match = (text: string) => matchesSelector(parseSelector(text), fields);
  assert.equal(match('entity.name == web-1'), true);
  assert.equal(match('entity.name == web-2'), false);
  assert.equal(match('missing == x'), false);
  assert.equal(match('missing != x'), true);
  assert.equal(match('region != eu'), false);
  assert.equal(match('region in [us, eu]'), true);
  assert.equal(match('region notin [us, eu]'), false);
  assert.equal(match('missing notin [us]'), true);
  assert.equal(match('entity.name matches web'), true);
  assert.equal(match('entity.name matches db'), false);
  assert.equal(match('entity.name == web-1 && region == us'), false, 'every operation must match');
});

test('in and notin against a list field test membership of the left value', () => {
  const fields = { 'entity.subscriptions': '[linux, web]' };
  assert.equal(matchesSelector(parseSelector('linux in entity.subscriptions'), fields), true);
  assert.equal(matchesSelector(parseSelector('windows in entity.subscriptions'), fields), false);
  assert.equal(matchesSelector(parseSelector('windows notin entity.subscriptions'), fields), true);
});

test('label selectors read labels by bare key; the check overrides the entity, which overrides the event', () => {
  const event = {
    metadata: { labels: { tier: 'event', team: 'ops' } },
    entity: { metadata: { labels: { tier: 'entity', zone: 'a' } } },
    check: { metadata: { labels: { tier: 'check' } } },
  };
  assert.deepEqual({ ...labelFields(event) }, { tier: 'check', team: 'ops', zone: 'a' });
  assert.deepEqual({ ...labelFields({}) }, {});
  assert.equal(Object.getPrototypeOf(labelFields({ metadata: { labels: { constructor: 'x' } } })), null, 'a label named like a prototype key is data');
});
