import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkSources, loadSettings } from '../../src/config/load-settings.js';
import type { LoadedFile } from '../../src/config/load.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const check = { command: 'true', interval: 60, subscribers: ['web'] };

test('every file of the sources is read and the settings built, the environment under them', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: check } }, 'b.json': { client: { name: 'box' } } });
  t.after(() => removeTree(root));
  const outcome = loadSettings({ configFile: null, configDirs: [root] }, { SENSU_CLIENT_ADDRESS: '10.1.1.1' });
  assert.deepEqual(outcome.diagnostics, []);
  assert.deepEqual(
    outcome.files.map((f) => f.path),
    [join(root, 'a.json'), join(root, 'b.json')],
  );
  assert.equal(outcome.settings?.checks.disk?.command, 'true');
  assert.equal(outcome.settings?.client.name, 'box');
  assert.equal(outcome.settings?.client.address, '10.1.1.1');
});

test('a source that cannot be listed is a diagnostic, and no settings are built from the rest', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: check } } });
  t.after(() => removeTree(root));
  const outcome = loadSettings({ configFile: null, configDirs: [root, join(root, 'absent')] }, {});
  assert.equal(outcome.settings, null);
  assert.equal(outcome.diagnostics.length, 1);
  assert.match(outcome.diagnostics[0]!.message, /insufficient permissions for loading: directory does not exist/);
  assert.equal(outcome.files.length, 1, 'the files that were listed are still read');
});

test('an unchanged file the watcher holds is reused instead of read again', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: check } }, 'b.json': { checks: { load: check } } });
  t.after(() => removeTree(root));
  const held: LoadedFile = { path: join(root, 'a.json'), text: '{}', data: { checks: { cpu: check } }, diagnostics: [], nullFree: true };
  const asked: string[] = [];
  const outcome = loadSettings({ configFile: null, configDirs: [root] }, {}, (path) => {
    asked.push(path);
    return path === held.path ? held : undefined;
  });
  assert.deepEqual(asked, [join(root, 'a.json'), join(root, 'b.json')]);
  assert.equal(outcome.files[0], held);
  assert.deepEqual(Object.keys(outcome.settings!.checks).sort(), ['cpu', 'load'], 'a.json as held, b.json as read');
});

test('checking validates without building settings, file and rule diagnostics together', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { ...check, interval: 0 } } } });
  t.after(() => removeTree(root));
  const outcome = checkSources({ configFile: join(root, 'absent.json'), configDirs: [root] }, {});
  assert.equal('settings' in outcome, false);
  assert.deepEqual(
    outcome.diagnostics.map((d) => d.message),
    ['config file does not exist or is not readable: ENOENT', 'check interval must be an integer greater than 0'],
  );
  assert.equal((outcome.merged.checks as Record<string, { interval: number }>).disk.interval, 0);
  assert.deepEqual(
    outcome.files.map((f) => f.path),
    [join(root, 'absent.json'), join(root, 'a.json')],
  );
});
