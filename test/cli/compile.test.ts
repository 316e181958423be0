import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { parseResources } from '../../src/cli/resource-files.js';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const CHECK = { command: 'df', interval: 60, subscribers: ['web'] };

test('usage errors are named before anything is read: --format, --target, --report-format', () => {
  const cases: [string[], RegExp][] = [
    [['--format', 'toml'], /--format must be one of yaml, wrapped-json, json/],
    [['--target', '5.21'], /--target must be a Sensu Go 6 version \(6\.0 … 6\.x\), not 5\.21/],
    [['--report-format', 'html'], /--report-format must be markdown or json/],
  ];
  for (const [args, message] of cases) {
    const result = runCli(['compile', '/nonexistent', ...args]);
    assert.equal(result.code, 64, args.join(' '));
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /configuration read from/);
  }
});

test('invalid configuration compiles nothing, exit 1', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df', subscribers: [] } } } });
  t.after(() => removeTree(root));
  const result = runCli(['compile', root]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /\/checks\/disk\/interval: check interval must be an integer greater than 0\nconfiguration is invalid: nothing compiled\n$/);
});

test('resources go to stdout in the namespace asked for, with a count by kind; --strict fails on the warnings', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: CHECK, load: { ...CHECK, handlers: ['nowhere'] } } } });
  t.after(() => removeTree(root));
  const result = runCli(['compile', root, '--namespace', 'ops', '--format', 'wrapped-json']);
  assert.equal(result.code, 0, result.stderr);
  const resources = parseResources(result.stdout, 'stdout');
  const checks = resources.filter((r) => r.type === 'CheckConfig');
  assert.deepEqual(checks.map((c) => c.metadata.name).sort(), ['disk', 'load']);
  assert.ok(checks.every((c) => c.metadata.namespace === 'ops'));
  assert.match(result.stderr, /warning: .*\/checks\/load\/handlers\/0: check load: handler "nowhere" is not defined/);
  assert.match(result.stderr, /compiled \d+ resources \(.*CheckConfig 2.*\), 1 warnings\n$/);
  const strict = runCli(['compile', root, '--strict']);
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict: 1 warnings\n$/);
});

test('--out writes one file per kind; --report writes the migration report, JSON by its name', (t) => {
  const root = makeTree({ 'conf/a.json': { checks: { disk: CHECK } } });
  t.after(() => removeTree(root));
  const out = join(root, 'out');
  const report = join(root, 'report.json');
  const result = runCli(['compile', join(root, 'conf'), '--out', out, '--report', report]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '');
  assert.ok(readdirSync(out).includes('checkconfig.yaml'));
  assert.match(result.stderr, new RegExp(`wrote ${join(out, 'checkconfig.yaml')}\\n`));
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
  assert.equal(parsed.rehearsal, undefined, 'no state directory, no rehearsal section');
  const markdown = join(root, 'report.md');
  assert.equal(runCli(['compile', join(root, 'conf'), '--report', markdown]).code, 0);
  assert.ok(existsSync(markdown));
  assert.throws(() => JSON.parse(readFileSync(markdown, 'utf8')), 'Markdown for any other name');
});

test("--from-state emits the state directory's silences with their remaining expiry, and the report gains the rehearsal", (t) => {
  const root = makeTree({ 'conf/a.json': { checks: { disk: CHECK } } });
  t.after(() => removeTree(root));
  const store = StateStore.open(join(root, 'state', 'checkbridge.db'));
  store.silences.put('web:disk', { id: 'web:disk', subscription: 'web', check: 'disk', reason: 'maintenance' }, Date.now() + 600_000);
  store.silences.put('*:load', { id: '*:load', check: 'load' }, null);
  store.close();
  const report = join(root, 'report.json');
  const result = runCli(['compile', join(root, 'conf'), '--from-state', join(root, 'state'), '--format', 'json', '--report', report]);
  assert.equal(result.code, 0, result.stderr);
  const silenced = parseResources(result.stdout, 'stdout').filter((r) => r.type === 'Silenced');
  const web = silenced.find((s) => s.metadata.name === 'web:disk')!;
  assert.equal(web.spec.reason, 'maintenance');
  assert.ok(web.spec.expire > 590 && web.spec.expire <= 600, String(web.spec.expire));
  assert.ok(
    silenced.some((s) => s.spec.check === 'load' && s.spec.expire === -1),
    'one that never expires',
  );
  const rehearsal = (JSON.parse(readFileSync(report, 'utf8')) as { rehearsal?: { other_configuration: boolean } }).rehearsal;
  assert.ok(rehearsal, 'the rehearsal section');
  assert.equal(rehearsal.other_configuration, false, 'nothing rehearsed yet is no other configuration');
});

test('--from-state naming a directory without a store is a usage error', (t) => {
  const root = makeTree({ 'conf/a.json': { checks: { disk: CHECK } } });
  t.after(() => removeTree(root));
  const result = runCli(['compile', join(root, 'conf'), '--from-state', join(root, 'nothing')]);
  assert.equal(result.code, 64);
  assert.match(result.stderr, new RegExp(`--from-state: ${join(root, 'nothing', 'checkbridge.db')} does not exist`));
});
