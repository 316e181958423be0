// Where a configuration problem is: a JSON pointer and file:line:column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDiagnostic, pointerOf } from '../../src/config/diagnostic.js';

test('pointerOf escapes ~ and / in a segment as RFC 6901 does', () => {
  assert.equal(pointerOf([]), '');
  assert.equal(pointerOf(['checks', 'disk', 'interval']), '/checks/disk/interval');
  assert.equal(pointerOf(['checks', 'a/b~c', 0]), '/checks/a~1b~0c/0');
  assert.equal(pointerOf(['~1']), '/~01', 'the ~ first, so an escape is not escaped twice');
});

test('formatDiagnostic: file:line:column, then the path (/ for the root) and the message', () => {
  const base = { code: 'CB_CONFIG_PARSE' as const, message: 'must be an integer' };
  assert.equal(
    formatDiagnostic({ ...base, file: 'conf.d/a.json', line: 3, column: 14, path: '/checks/disk/interval' }),
    'conf.d/a.json:3:14 /checks/disk/interval: must be an integer',
  );
  assert.equal(formatDiagnostic({ ...base, file: null, line: null, column: null, path: '' }), '<settings>:0:0 /: must be an integer');
});
