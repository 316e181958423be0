import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSettings, checkSettings, locateSetting } from '../../src/config/build.js';
import type { LoadedFile } from '../../src/config/load.js';

/** A file as the loader reads it: its text (for line and column) and its parse. */
function file(path: string, data: Record<string, unknown>): LoadedFile {
  const text = JSON.stringify(data, null, 2);
  return { path, text, data, diagnostics: [], nullFree: !text.includes('null') };
}

const check = { command: 'true', interval: 60, subscribers: ['web'] };

test('files merge in order over the environment, the client subscribes to client:<name>, and the settings are frozen', () => {
  const files = [
    file('a.json', { client: { name: 'one', subscriptions: ['web'] }, checks: { disk: { ...check, interval: 10 } } }),
    file('b.json', { client: { name: 'two' }, checks: { disk: { interval: 30 } } }),
  ];
  const outcome = buildSettings(files, { SENSU_CLIENT_NAME: 'from-env', SENSU_CLIENT_ADDRESS: '10.0.0.9' });
  assert.deepEqual(outcome.diagnostics, []);
  const settings = outcome.settings!;
  assert.equal(settings.client.name, 'two', 'files win over the environment');
  assert.equal(settings.client.address, '10.0.0.9', 'what no file sets comes from the environment');
  assert.deepEqual(settings.client.subscriptions, ['web', 'client:two']);
  assert.equal(settings.checks.disk!.interval, 30);
  assert.equal(settings.checks.disk!.name, 'disk');
  assert.deepEqual(settings.files, ['a.json', 'b.json']);
  assert.ok(Object.isFrozen(settings) && Object.isFrozen(settings.checks.disk));
  assert.throws(() => {
    (settings.client as Record<string, unknown>).name = 'x';
  }, TypeError);
});

test('a definition named like an Object member is data, not a prototype property', () => {
  const settings = buildSettings([file('a.json', { checks: { disk: check } })], {}).settings!;
  assert.equal(settings.checks.constructor, undefined);
  assert.equal(settings.handlers.toString, undefined);
  const named = buildSettings([file('a.json', { checks: { constructor: check } })], {}).settings!;
  assert.equal(named.checks['constructor']?.command, 'true');
});

test('invalid settings give no settings, each diagnostic at the file, line and column that set the value last', () => {
  const files = [file('a.json', { checks: { disk: check } }), file('b.json', { checks: { disk: { interval: 'often' } } })];
  const outcome = buildSettings(files, {});
  assert.equal(outcome.settings, null);
  assert.deepEqual(
    outcome.diagnostics.map((d) => [d.code, d.file, d.line, d.path, d.message]),
    [['CB_CONFIG_RULE', 'b.json', 4, '/checks/disk/interval', 'check interval must be an integer greater than 0']],
  );
  assert.equal(outcome.merged.checks && (outcome.merged.checks as Record<string, { interval: unknown }>).disk.interval, 'often', 'merged as configured');
});

test("the files' own diagnostics come first and keep the settings from being built", () => {
  const broken: LoadedFile = {
    path: 'bad.json',
    text: '{',
    data: null,
    diagnostics: [{ code: 'CB_CONFIG_PARSE', file: 'bad.json', line: 1, column: 2, path: '', message: 'config file must be valid json' }],
  };
  const outcome = buildSettings([broken, file('a.json', { checks: { disk: check } })], {});
  assert.equal(outcome.settings, null);
  assert.equal(outcome.diagnostics[0], broken.diagnostics[0]);
});

test('subscriptions that are not a list cannot take the client override: a warning, and the rule says why', () => {
  const report = checkSettings([file('a.json', { client: { name: 'one', subscriptions: 'web' } })], {});
  assert.deepEqual(report.warnings, ['unable to apply sensu client overrides']);
  assert.ok(report.diagnostics.some((d) => d.path === '/client/subscriptions'));
});

test('what loads but means other than it says is a located notice, never an error', () => {
  const files = [file('a.json', { checks: { disk: { ...check, ttl: 30 } } })];
  const outcome = buildSettings(files, {});
  assert.ok(outcome.settings, 'still valid');
  assert.equal(outcome.notices.length, 1);
  const notice = outcome.notices[0]!;
  assert.equal(notice.code, 'CB_CONFIG_LEGACY_MEANING');
  assert.equal(notice.file, 'a.json');
  assert.equal(notice.path, '/checks/disk/ttl');
  assert.equal(notice.line, 9);
  assert.match(notice.message, /check ttl 30 is not greater than its interval 60/);
});

test('a setting is located in the last file that set it, else at its parent, else nowhere', () => {
  const files = [file('a.json', { api: { port: 4567, bind: '0.0.0.0' } }), file('b.json', { api: { port: 4568 } })];
  const port = locateSetting(files, ['api', 'port'], 'port taken');
  assert.deepEqual(port, { code: 'CB_CONFIG_RULE', file: 'b.json', line: 3, column: 5, path: '/api/port', message: 'port taken' });
  assert.equal(locateSetting(files, ['api', 'bind'], 'm').file, 'a.json');
  const missing = locateSetting(files, ['api', 'user'], 'missing', 'CB_CONFIG_LEGACY_MEANING');
  assert.equal(missing.file, 'b.json', 'the parent api was set last in b.json');
  assert.equal(missing.code, 'CB_CONFIG_LEGACY_MEANING');
  assert.deepEqual(locateSetting(files, ['redis', 'host'], 'nowhere'), {
    code: 'CB_CONFIG_RULE',
    file: null,
    line: null,
    column: null,
    path: '/redis/host',
    message: 'nowhere',
  });
});

test('an array element is located by its index', () => {
  const files = [file('a.json', { client: { name: 'c', subscriptions: ['a', 'b'] } })];
  const located = locateSetting(files, ['client', 'subscriptions', '1'], 'm');
  assert.equal(located.file, 'a.json');
  assert.equal(located.line, 6);
  assert.equal(locateSetting(files, ['client', 'subscriptions', '5'], 'm').file, 'a.json', 'past the end: at the list');
});
