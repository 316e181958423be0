import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

// Validation skips the search for null values in definitions only when no file's text holds `null`: a null merged in from
// another file is still read as absent, and a `null` inside a string makes no value null.
test('validate: a null set by one file over a null-free one is absent, as legacy reads it', (t) => {
  const root = makeTree({
    'a.json': { checks: { disk: { command: 'df', interval: 60, subscribers: ['linux'], timeout: 30 } } },
    'b.json': { checks: { disk: { timeout: null, handlers: null } } },
  });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--no-config-file', '-d', root]);
  assert.equal(result.stdout, 'configuration is valid\n');
  assert.equal(result.code, 0);
});

test('validate: "null" inside strings of a null-free file leaves its rules as they are', (t) => {
  const root = makeTree({
    'a.json': { checks: { nullable: { command: 'echo null', interval: 'null', subscribers: ['null'] } } },
  });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--no-config-file', '-d', root]);
  assert.equal(
    result.stdout,
    `${join(root, 'a.json')}:5:7 /checks/nullable/interval: check interval must be an integer greater than 0\nconfiguration is invalid\n`,
  );
  assert.equal(result.code, 2);
});
