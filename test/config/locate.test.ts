// Where a diagnostic's JSON pointer is in the file a user edits: the line and column of its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locate } from '../../src/config/locate.js';

const TEXT = ['{', '  "checks": {', '    "disk": {', '      "interval": "x",', '      "subscribers": ["a", "b"]', '    }', '  }', '}'].join('\n');

test('the key of the value at the path; an array element itself', () => {
  const file = { text: TEXT };
  assert.deepEqual(locate(file, ['checks', 'disk', 'interval']), { line: 4, column: 7 });
  assert.deepEqual(locate(file, ['checks', 'disk']), { line: 3, column: 5 });
  assert.deepEqual(locate(file, ['checks', 'disk', 'subscribers', '1']), { line: 5, column: 28 });
  assert.deepEqual(locate(file, []), { line: 1, column: 1 });
});

test('a path that goes past what exists points at its nearest existing ancestor', () => {
  const file = { text: TEXT };
  assert.deepEqual(locate(file, ['checks', 'disk', 'timeout']), { line: 3, column: 5 });
  assert.deepEqual(locate(file, ['checks', 'disk', 'subscribers', '7']), { line: 5, column: 7 });
  assert.deepEqual(locate(file, ['checks', 'disk', 'interval', 'deeper']), { line: 4, column: 7 });
});

test('comments, trailing commas and a byte order mark do not move positions; a duplicate key finds the last', () => {
  const text = '\uFEFF{\n  // a comment\n  "a": 1,\n  "b": {"c": 2,},\n  "a": 3,\n}';
  assert.deepEqual(locate({ text }, ['b', 'c']), { line: 4, column: 9 });
  assert.deepEqual(locate({ text }, ['a']), { line: 5, column: 3 });
  assert.deepEqual(locate({ text: '' }, ['a']), { line: 1, column: 1 }, 'nothing to parse');
});
