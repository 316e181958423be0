import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { listConfigFiles, readConfigFile } from '../../src/config/load.js';
import { loadSettings } from '../../src/config/load-settings.js';
import { resolveSources } from '../../src/config/sources.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('files load recursively in byte order of their paths, dot-files skipped', (t) => {
  const root = makeTree({ 'b.json': '{}', 'a/z.json': '{}', 'a/B.json': '{}', 'A.json': '{}', '.hidden.json': '{}', 'c.txt': 'x' });
  t.after(() => removeTree(root));
  const { files, diagnostics } = listConfigFiles({ configFile: null, configDirs: [root] });
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    files.map((f) => f.slice(root.length + 1)),
    ['A.json', 'a/B.json', 'a/z.json', 'b.json'],
  );
});

test('a symlinked directory is followed once; a dangling link is a diagnostic', (t) => {
  const root = makeTree({ 'real/x.json': '{}', 'conf/a.json': '{}' });
  t.after(() => removeTree(root));
  symlinkSync(join(root, 'real'), join(root, 'conf', 'linked'));
  symlinkSync(join(root, 'conf'), join(root, 'conf', 'loop'));
  symlinkSync(join(root, 'nowhere.json'), join(root, 'conf', 'dangling.json'));
  const { files, diagnostics } = listConfigFiles({ configFile: null, configDirs: [join(root, 'conf')] });
  assert.deepEqual(
    files.map((f) => f.slice(root.length + 1)),
    ['conf/a.json', 'conf/linked/x.json'],
  );
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0]!.message, /config file does not exist or is not readable: dangling symbolic link/);
  assert.equal(diagnostics[0]!.file, join(root, 'conf', 'dangling.json'));
});

test('an unreadable directory and a missing directory are diagnostics, not exceptions', (t) => {
  const root = makeTree({ 'locked/a.json': '{}' });
  t.after(() => {
    chmodSync(join(root, 'locked'), 0o755);
    removeTree(root);
  });
  chmodSync(join(root, 'locked'), 0o000);
  const missing = listConfigFiles({ configFile: null, configDirs: [join(root, 'absent')] });
  assert.match(missing.diagnostics[0]!.message, /insufficient permissions for loading: directory does not exist/);
  // root bypasses permission bits, so only assert where they apply.
  if (process.getuid?.() !== 0) {
    const locked = listConfigFiles({ configFile: null, configDirs: [join(root, 'locked')] });
    assert.match(locked.diagnostics[0]!.message, /insufficient permissions for loading/);
  }
});

test('a file that is not an object, or not JSON, is named with its position', (t) => {
  const root = makeTree({ 'list.json': '[1, 2]', 'bad.json': '{\n  "checks": {,\n}' });
  t.after(() => removeTree(root));
  assert.equal(readConfigFile(join(root, 'list.json')).diagnostics[0]!.message, 'config file must contain a json object');
  const bad = readConfigFile(join(root, 'bad.json')).diagnostics[0]!;
  assert.equal(bad.line, 2);
  assert.equal(bad.column, 14);
  assert.match(bad.message, /^config file must be valid json: invalid character ',' at line 2 column 14$/);
});

test('later files win, arrays accumulate, names come from keys, client gains client:<name>', (t) => {
  const root = makeTree({
    '10-client.json': { client: { name: 'web01', address: '10.0.0.1', subscriptions: ['linux'] } },
    '20-client.json': { client: { subscriptions: ['web', 'linux'] } },
    '30-check.json': { checks: { disk: { command: 'df', interval: 60, subscribers: ['linux'], name: 'ignored' } } },
    '40-check.json': { checks: { disk: { interval: 30, subscribers: ['web'] } } },
  });
  t.after(() => removeTree(root));
  const outcome = loadSettings({ configFile: null, configDirs: [root] }, {});
  assert.deepEqual(outcome.diagnostics, []);
  const settings = outcome.settings!;
  assert.deepEqual(settings.client.subscriptions, ['linux', 'web', 'client:web01']);
  assert.equal(settings.checks.disk!.name, 'disk');
  assert.equal(settings.checks.disk!.interval, 30);
  assert.deepEqual(settings.checks.disk!.subscribers, ['linux', 'web']);
  assert.ok(Object.isFrozen(settings.checks.disk));
});

test('defaults are applied after validation', (t) => {
  const root = makeTree({
    'c.json': {
      checks: {
        plain: { command: 'true', interval: 10, subscribers: [] },
        metric: {
          type: 'metric',
          command: 'true',
          interval: 10,
          subscribers: [],
          hooks: { critical: { command: 'x' } },
          proxy_requests: { client_attributes: {} },
        },
        untruncated: { type: 'metric', truncate_output: false, command: 'true', interval: 10, subscribers: [] },
      },
    },
  });
  t.after(() => removeTree(root));
  const { checks } = loadSettings({ configFile: null, configDirs: [root] }, {}).settings!;
  assert.deepEqual(
    {
      type: checks.plain!.type,
      publish: checks.plain!.publish,
      ttl_status: checks.plain!.ttl_status,
      auto_resolve: checks.plain!.auto_resolve,
      handle: checks.plain!.handle,
      truncate_output: checks.plain!.truncate_output,
      truncate_output_length: checks.plain!.truncate_output_length,
      occurrences: checks.plain!.occurrences,
      refresh: checks.plain!.refresh,
    },
    {
      type: 'standard',
      publish: true,
      ttl_status: 1,
      auto_resolve: true,
      handle: true,
      truncate_output: false,
      truncate_output_length: 255,
      occurrences: 1,
      refresh: 1800,
    },
  );
  assert.equal(checks.metric!.truncate_output, true);
  assert.equal(checks.metric!.hooks!.critical!.timeout, 60);
  assert.equal(checks.metric!.proxy_requests!.splay_coverage, 90);
  assert.equal(checks.untruncated!.truncate_output, false);
});

test('a diagnostic names the file that set the offending value last, with line and column', (t) => {
  const root = makeTree({
    'a.json': '{\n  "checks": {\n    "disk": {\n      "command": "df",\n      "interval": 60,\n      "subscribers": []\n    }\n  }\n}\n',
    'b.json': '{\n  "checks": {\n    "disk": {\n        "interval": "often"\n    }\n  }\n}\n',
  });
  t.after(() => removeTree(root));
  const { diagnostics, settings } = loadSettings({ configFile: null, configDirs: [root] }, {});
  assert.equal(settings, null);
  assert.deepEqual(
    diagnostics.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
    [{ file: join(root, 'b.json'), line: 4, column: 9, path: '/checks/disk/interval', message: 'check interval must be an integer greater than 0' }],
  );
});

test('a missing attribute points at its definition in the last file that set it', (t) => {
  const root = makeTree({ 'a.json': '{"checks": {"disk": {"command": "df", "subscribers": []}}}' });
  t.after(() => removeTree(root));
  const [d] = loadSettings({ configFile: null, configDirs: [root] }, {}).diagnostics;
  assert.deepEqual({ path: d!.path, line: d!.line, column: d!.column }, { path: '/checks/disk/interval', line: 1, column: 13 });
});

test('environment overrides apply first, so files win', (t) => {
  const root = makeTree({ 'c.json': { client: { address: 'file' } } });
  t.after(() => removeTree(root));
  const env = { SENSU_CLIENT_NAME: 'envname', SENSU_CLIENT_ADDRESS: 'envaddr', SENSU_CLIENT_SUBSCRIPTIONS: 'a,b', SENSU_API_PORT: '4568' };
  const settings = loadSettings({ configFile: null, configDirs: [root] }, env).settings!;
  assert.equal(settings.client.name, 'envname');
  assert.equal(settings.client.address, 'file');
  assert.deepEqual(settings.client.subscriptions, ['a', 'b', 'client:envname']);
  assert.deepEqual(settings.raw.api, { port: 4568 });
});

test('default sources are ./conf.d unless /etc/sensu exists; -d replaces the default directory, not the default file', () => {
  assert.deepEqual(
    resolveSources({}, (p) => p === 'conf.d'),
    { configFile: null, configDirs: ['conf.d'] },
  );
  assert.deepEqual(
    resolveSources({}, () => false),
    {
      configFile: null,
      configDirs: ['conf.d'],
      searched: ['/etc/sensu/config.json', '/etc/sensu/conf.d', 'conf.d'],
    },
  );
  assert.deepEqual(
    resolveSources({}, (p) => p === '/etc/sensu/conf.d'),
    { configFile: null, configDirs: ['/etc/sensu/conf.d'] },
  );
  assert.deepEqual(
    resolveSources({ configDirs: ['a,b', 'c'] }, () => true),
    { configFile: '/etc/sensu/config.json', configDirs: ['a', 'b', 'c'] },
  );
  assert.deepEqual(
    resolveSources({ configDirs: ['a'] }, () => false),
    { configFile: null, configDirs: ['a'] },
  );
  assert.deepEqual(
    resolveSources({ configFile: false, configDirs: ['a'] }, () => true),
    { configFile: null, configDirs: ['a'] },
  );
  assert.deepEqual(
    resolveSources({ configDirs: ['a'], legacyRoot: '/x' }, (p) => p === '/x/config.json'),
    { configFile: '/x/config.json', configDirs: ['a'] },
  );
});

test('a category or definition of the wrong type is a diagnostic', (t) => {
  const root = makeTree({ 'a.json': { checks: [], handlers: { h: 'x' } } });
  t.after(() => removeTree(root));
  const messages = loadSettings({ configFile: null, configDirs: [root] }, {}).diagnostics.map((d) => `${d.path} ${d.message}`);
  assert.deepEqual(messages, ['/checks checks must be a hash', '/handlers/h handler must be a hash']);
});

test('an unknown attribute is kept', (t) => {
  const root = makeTree({ 'a.json': { checks: { x: { command: 'c', interval: 5, subscribers: [], team: { owner: 'ops' } } } } });
  t.after(() => removeTree(root));
  assert.deepEqual(loadSettings({ configFile: null, configDirs: [root] }, {}).settings!.checks.x!.team, { owner: 'ops' });
});

test('a subdirectory in the tree gets created without breaking the listing', (t) => {
  const root = makeTree({ 'a.json': '{}' });
  t.after(() => removeTree(root));
  mkdirSync(join(root, 'empty'));
  assert.equal(listConfigFiles({ configFile: null, configDirs: [root] }).files.length, 1);
});
