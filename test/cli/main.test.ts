// main.js runs the command line as soon as it is imported: it is exercised through the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('help lists every command and exits 0', () => {
  const result = runCli(['--help']);
  assert.equal(result.code, 0);
  for (const command of [
    'run',
    'exec',
    'schedule',
    'validate',
    'print-config',
    'render',
    'api-key',
    'compile',
    'create',
    'dump',
    'rehearse',
    'version',
    'upgrade',
    'backup',
    'reset-admin-password',
    'login',
  ])
    assert.match(result.stdout, new RegExp(`\\n  ${command} `), command);
});

test('a command named after the global options runs, their values skipped', () => {
  const result = runCli(['--url', 'http://127.0.0.1:1', '--api-key', 'run', 'version', '--json']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(typeof (JSON.parse(result.stdout) as { version: string }).version, 'string');
});

test('an unknown command, an unknown option or a missing required option is a usage error, 64, with help', () => {
  const unknown = runCli(['frobnicate']);
  assert.equal(unknown.code, 64);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  const missing = runCli(['create']);
  assert.equal(missing.code, 64);
  assert.match(missing.stderr, /required option '-f, --file <path\.\.\.>' not specified\n\nUsage: checkbridge create/);
});

test("a checkbridge error is one line and that error's exit code; an exit code a command set is the process's", (t) => {
  const usage = runCli(['schedule', '--at', 'yesterday']);
  assert.equal(usage.code, 64);
  assert.equal(usage.stderr, 'checkbridge: invalid usage: --at: not an ISO-8601 instant: yesterday\n');
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df' } } } });
  t.after(() => removeTree(root));
  assert.equal(runCli(['validate', root]).code, 2, 'validate sets 2 for invalid configuration');
});

test('an unexpected failure prints its stack and exits 1', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df', interval: 60, subscribers: [] } } } });
  t.after(() => removeTree(root));
  const result = runCli(['compile', root, '--out', '/dev/null/out']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /\ncheckbridge: Error: ENOTDIR: not a directory, mkdir '\/dev\/null\/out'\n {4}at /);
});

test('legacy flags are translated before the command is found', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df', interval: 60, subscribers: [] } } } });
  t.after(() => removeTree(root));
  const result = runCli(['-d', root, '--validate_config']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'configuration is valid\n');
});
