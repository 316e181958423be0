import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { ROOT } from '../helpers/paths.js';

const goodTree = () =>
  makeTree({
    'client.json': { client: { name: 'web01', address: '10.0.0.1', subscriptions: ['linux'], password: 'hunter2', tier: 'gold' } },
    'checks/disk.json': { checks: { disk: { command: 'check-disk -w :::disk.warning|80::: --tier :::tier:::', interval: 60, subscribers: ['linux'] } } },
    'checks/tokens.json': { checks: { needs_token: { command: 'echo :::missing.attr::: :::tier:::', standalone: true, interval: 10 } } },
    'handlers.json': { handlers: { mail: { type: 'pipe', command: 'mail -s x', api_key: 'abc' } } },
  });

test('validate: a valid tree prints "configuration is valid" and exits 0', (t) => {
  const root = goodTree();
  t.after(() => removeTree(root));
  const result = runCli(['validate', root]);
  assert.equal(result.stdout, 'configuration is valid\n');
  assert.equal(result.code, 0);
});

test('validate: every diagnostic as FILE:LINE:COL PATH: MESSAGE, then the verdict, exit 2', (t) => {
  const root = makeTree({
    'a.json': '{\n  "checks": {\n    "disk": {\n      "command": "df",\n      "interval": 0,\n      "subscribers": "all"\n    }\n  }\n}\n',
  });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '-d', root]);
  const file = join(root, 'a.json');
  assert.equal(
    result.stdout,
    `${file}:5:7 /checks/disk/interval: check interval must be an integer greater than 0\n` +
      `${file}:6:7 /checks/disk/subscribers: check subscribers must be an array\n` +
      'configuration is invalid\n',
  );
  assert.equal(result.code, 2);
});

test('validate --json reports validity, located errors and counts', (t) => {
  const root = makeTree({
    'a.json': { checks: { ok: { command: 'x', interval: 1, subscribers: [] }, bad: { command: 'x', subscribers: [] } }, filters: { f: { attributes: {} } } },
  });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--json', root]);
  assert.equal(result.code, 2);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(report, {
    valid: false,
    read: { config_file: null, config_dirs: [{ dir: root, files: 1 }] },
    errors: [{ file: join(root, 'a.json'), line: 8, column: 5, path: '/checks/bad/interval', message: 'check interval must be an integer greater than 0' }],
    warnings: [],
    counts: { checks: 2, handlers: 0, filters: 1, mutators: 0 },
  });
});

test('validate: malformed JSON names file, line, column and reason, and other files still load', (t) => {
  const root = makeTree({ 'a.json': '{\n  "checks": {\n    "x": {"command": "a",, }\n  }\n}', 'b.json': { checks: { y: { command: 'true' } } } });
  t.after(() => removeTree(root));
  const result = runCli(['validate', root]);
  assert.equal(result.code, 2);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines[0], `${join(root, 'a.json')}:3:26 /: config file must be valid json: invalid character ',' at line 3 column 26`);
  assert.match(lines[1]!, /b\.json:\d+:\d+ \/checks\/y\/interval: check interval must be an integer greater than 0$/);
  assert.equal(lines.at(-1), 'configuration is invalid');
  assert.doesNotMatch(result.stderr, /at .*\.js:\d+/);
});

test('legacy flags keep working: -d DIR --validate_config and -c FILE', (t) => {
  const root = goodTree();
  const bad = makeTree({ 'config.json': { checks: { x: {} } } });
  t.after(() => {
    removeTree(root);
    removeTree(bad);
  });
  assert.equal(runCli(['-d', root, '--validate_config']).code, 0);
  const invalid = runCli(['-c', join(bad, 'config.json'), '-d', root, '--validate_config']);
  assert.equal(invalid.code, 2);
  assert.match(invalid.stdout, /either check command or extension must be set/);
});

test('print-config: merged settings with defaults, secrets redacted unless asked', (t) => {
  const root = goodTree();
  t.after(() => removeTree(root));
  const result = runCli(['print-config', root]);
  assert.equal(result.code, 0);
  const printed = JSON.parse(result.stdout);
  assert.equal(printed.client.password, 'REDACTED');
  assert.equal(printed.handlers.mail.api_key, 'REDACTED');
  assert.equal(printed.checks.disk.truncate_output_length, 255);
  assert.deepEqual(printed.client.subscriptions, ['linux', 'client:web01']);
  assert.deepEqual(printed.sensu.spawn, { limit: 12 });
  const raw = JSON.parse(runCli(['print-config', root, '--redacted=false']).stdout);
  assert.equal(raw.client.password, 'hunter2');
});

test('render: the check after substitution, exit 0; unmatched tokens listed, exit 1', (t) => {
  const root = goodTree();
  const clientDir = makeTree({ 'client.json': { client: { name: 'other', tier: 'silver', missing: { attr: 'found' } } } });
  t.after(() => {
    removeTree(root);
    removeTree(clientDir);
  });
  const ok = runCli(['render', 'disk', root]);
  assert.equal(ok.code, 0);
  const rendered = JSON.parse(ok.stdout);
  assert.equal(rendered.command, 'check-disk -w 80 --tier gold');
  assert.deepEqual(rendered.unmatched_tokens, []);
  assert.equal(rendered.interval, 60);

  const unmatched = runCli(['render', 'needs_token', root]);
  assert.equal(unmatched.code, 1);
  assert.deepEqual(JSON.parse(unmatched.stdout).unmatched_tokens, ['missing.attr']);

  const withClient = runCli(['render', 'needs_token', root, '--client', join(clientDir, 'client.json')]);
  assert.equal(withClient.code, 0);
  assert.equal(JSON.parse(withClient.stdout).command, 'echo found silver');
});

test('render: an unknown check or a bad client file is a clear error, never a stack trace', (t) => {
  const root = goodTree();
  const junk = makeTree({ 'client.json': '{"a": nope}' });
  t.after(() => {
    removeTree(root);
    removeTree(junk);
  });
  const unknown = runCli(['render', 'nope', root]);
  assert.equal(unknown.code, 64);
  assert.equal(unknown.stderr, `checkbridge: configuration read from ${root} (4 files)\ncheckbridge: unknown check: nope\n`);
  const badClient = runCli(['render', 'disk', root, '--client', join(junk, 'client.json')]);
  assert.equal(badClient.code, 1);
  assert.match(badClient.stderr, /\ncheckbridge: client file is invalid: .*client\.json:1:8: invalid character 'o'\n$/);
});

test('an unknown command or option is a usage error (64)', () => {
  assert.equal(runCli(['frobnicate']).code, 64);
  assert.equal(runCli(['validate', '--bogus']).code, 64);
});

test('the shipped conf.d examples are valid', () => {
  const result = runCli(['validate', join(ROOT, 'conf.d')]);
  assert.equal(result.stdout, 'configuration is valid\n');
});
