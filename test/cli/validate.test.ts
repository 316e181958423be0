import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

// Valid, with two warnings: a ttl not above the interval (legacy meaning) and a handler nothing defines (lint).
const WARNED = { checks: { disk: { command: 'df', interval: 60, ttl: 30, subscribers: ['web'], handlers: ['nowhere'] } } };

test('warnings are printed on stderr, located, and leave the configuration valid', (t) => {
  const root = makeTree({ 'a.json': WARNED });
  t.after(() => removeTree(root));
  const result = runCli(['validate', root]);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, 'configuration is valid\n');
  const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, new RegExp(`^warning: ${join(root, 'a.json')}:\\d+:\\d+ /checks/disk/ttl: check ttl 30 is not greater than its interval 60`));
  assert.match(warnings[1]!, /\/checks\/disk\/handlers\/0: check disk: handler "nowhere" is not defined/);
});

test('--strict fails on any warning, exit 2, saying how many', (t) => {
  const root = makeTree({ 'a.json': WARNED });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--strict', root]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '--strict: 2 warnings\nconfiguration is invalid\n');
  const json = runCli(['validate', '--strict', '--json', root]);
  assert.equal(json.code, 2);
  const report = JSON.parse(json.stdout) as { valid: boolean; errors: unknown[]; warnings: { path: string }[] };
  assert.equal(report.valid, false);
  assert.deepEqual(report.errors, []);
  assert.deepEqual(
    report.warnings.map((w) => w.path),
    ['/checks/disk/ttl', '/checks/disk/handlers/0'],
  );
});

test('--strict passes a configuration without warnings', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df', interval: 60, subscribers: ['web'] } } } });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--strict', '--json', root]);
  assert.equal(result.code, 0);
  assert.equal((JSON.parse(result.stdout) as { valid: boolean }).valid, true);
});
