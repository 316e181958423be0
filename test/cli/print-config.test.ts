import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const CONFIG = {
  client: { name: 'box', address: '10.0.0.1', subscriptions: ['web'], password: 'hunter2' },
  checks: { disk: { command: 'df', interval: 60, subscribers: ['web'] } },
};

test('the merged settings are printed with the checks as they run (defaults in), secrets redacted by default', (t) => {
  const root = makeTree({ 'a.json': CONFIG });
  t.after(() => removeTree(root));
  const result = runCli(['print-config', root]);
  assert.equal(result.code, 0, result.stderr);
  const printed = JSON.parse(result.stdout) as { client: Record<string, unknown>; checks: Record<string, Record<string, unknown>> };
  assert.equal(printed.client.password, 'REDACTED');
  assert.equal(printed.checks.disk!.name, 'disk');
  assert.equal(printed.checks.disk!.command, 'df');
  assert.equal(printed.checks.disk!.interval, 60);
});

test('--redacted takes true or false in the legacy spellings; --no-redacted prints secrets as configured', (t) => {
  const root = makeTree({ 'a.json': CONFIG });
  t.after(() => removeTree(root));
  const password = (args: string[]) => (JSON.parse(runCli(['print-config', root, ...args]).stdout) as { client: { password: string } }).client.password;
  assert.equal(password(['--redacted', 'off']), 'hunter2');
  assert.equal(password(['--redacted=NO']), 'hunter2');
  assert.equal(password(['--no-redacted']), 'hunter2');
  assert.equal(password(['--redacted', 'yes']), 'REDACTED');
});

test('invalid configuration prints nothing on stdout, its diagnostics on stderr, exit 2', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df', subscribers: [] } } } });
  t.after(() => removeTree(root));
  const result = runCli(['print-config', root]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /\/checks\/disk\/interval: check interval must be an integer greater than 0\nconfiguration is invalid\n$/);
});

test('--redacted with a value that is neither true nor false is a usage error, not a stack trace', (t) => {
  const root = makeTree({ 'a.json': CONFIG });
  t.after(() => removeTree(root));
  const result = runCli(['print-config', root, '--redacted', 'maybe']);
  assert.equal(result.code, 64);
  assert.match(result.stderr, /expected true or false, got maybe/);
  assert.doesNotMatch(result.stderr, /\n {4}at /);
});
