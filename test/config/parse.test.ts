import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigText } from '../../src/config/parse.js';

test('an empty or whitespace-only file is {}', () => {
  assert.deepEqual(parseConfigText(''), { ok: true, data: {} });
  assert.deepEqual(parseConfigText('\n\n  \n'), { ok: true, data: {} });
});

test('a UTF-8 byte-order mark is ignored', () => {
  assert.deepEqual(parseConfigText('\uFEFF{"a": 1}'), { ok: true, data: { a: 1 } });
});

test('comments and trailing commas are accepted (JSON5)', () => {
  assert.deepEqual(parseConfigText('{\n // note\n "a": [1, 2,], /* x */\n}'), { ok: true, data: { a: [1, 2] } });
});

test('invalid JSON names line, column and the reason', () => {
  const outcome = parseConfigText('{\n  "a": 1,\n  "b": ]\n}');
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.line, 3);
  assert.equal(outcome.column, 8);
  assert.match(outcome.reason, /invalid character/);
});
