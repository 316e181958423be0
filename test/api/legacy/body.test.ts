import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readData, type FieldRule } from '../../../src/api/legacy/body.js';

const STASH: Record<string, FieldRule> = { path: { type: 'string' }, content: { type: 'object' }, expire: { type: 'integer', nilOk: true } };

test('readData: a JSON object whose fields all hold their rules comes back whole, extra fields included', () => {
  const body = { path: 'a/b', content: { k: 1 }, expire: 60, extra: true };
  assert.equal(readData(body, STASH), body);
  assert.deepEqual(readData({ path: 'a', content: {} }, STASH), { path: 'a', content: {} }, 'a nil_ok field may be absent');
  assert.deepEqual(readData({ path: 'a', content: {}, expire: null }, STASH), { path: 'a', content: {}, expire: null }, 'or null');
});

test('readData: anything but a JSON object is refused', () => {
  for (const body of [null, undefined, 'text', 42, true, [], [{ path: 'a', content: {} }]]) assert.equal(readData(body, {}), null, JSON.stringify(body));
  assert.deepEqual(readData({}, {}), {});
});

test('readData: a field missing or null without nil_ok is refused', () => {
  assert.equal(readData({ content: {} }, STASH), null);
  assert.equal(readData({ path: null, content: {} }, STASH), null);
});

test('readData: each type is checked strictly (an integer is not a float, an object is not an array or null)', () => {
  const cases: [FieldRule['type'], unknown, boolean][] = [
    ['string', 'x', true],
    ['string', 1, false],
    ['integer', 3, true],
    ['integer', 3.5, false],
    ['integer', '3', false],
    ['boolean', false, true],
    ['boolean', 0, false],
    ['array', [], true],
    ['array', {}, false],
    ['object', {}, true],
    ['object', [], false],
    ['object', 'x', false],
  ];
  for (const [type, value, ok] of cases) assert.equal(readData({ f: value }, { f: { type } }) !== null, ok, `${type} ${JSON.stringify(value)}`);
});

test('readData: a string field must match its regex; the regex applies to strings only', () => {
  const rules: Record<string, FieldRule> = { id: { type: 'string', regex: /^[\w.-]+$/ } };
  assert.deepEqual(readData({ id: 'web-1.disk' }, rules), { id: 'web-1.disk' });
  assert.equal(readData({ id: 'web 1' }, rules), null);
  assert.deepEqual(readData({ n: 5 }, { n: { type: 'integer', regex: /^x$/ } }), { n: 5 });
});
