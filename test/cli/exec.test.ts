import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('exec of an unknown check exits with the usage code, never a status a check could return', (t) => {
  const root = makeTree({ 'checks.json': { checks: { warn: { command: 'echo careful; exit 1', interval: 60, standalone: true } } } });
  t.after(() => removeTree(root));
  const unknown = runCli(['exec', 'nope', '--no-config-file', root]);
  assert.equal(unknown.code, 64);
  assert.match(unknown.stderr, /checkbridge: unknown check: nope\n$/);
  const warning = runCli(['exec', 'warn', '--no-config-file', root]);
  assert.equal(warning.code, 1, 'a WARNING is 1');
  assert.equal(warning.stdout, 'careful\n');
});
