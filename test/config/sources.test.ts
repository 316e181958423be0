// Where the configuration is read from: the named file and directories, else the legacy defaults, else ./conf.d.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSources } from '../../src/config/sources.js';

const existing =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

test('a named file and directories are used as named; comma lists split, blanks dropped', () => {
  assert.deepEqual(resolveSources({ configFile: '/x/config.json', configDirs: ['/a, /b', ' ', '/c'] }, existing()), {
    configFile: '/x/config.json',
    configDirs: ['/a', '/b', '/c'],
  });
});

test('directories named without a file keep the legacy config.json when it exists', () => {
  assert.deepEqual(resolveSources({ configDirs: ['/d'], legacyRoot: '/etc/sensu' }, existing('/etc/sensu/config.json')), {
    configFile: '/etc/sensu/config.json',
    configDirs: ['/d'],
  });
  assert.deepEqual(resolveSources({ configDirs: ['/d'], configFile: false }, existing('/etc/sensu/config.json')), { configFile: null, configDirs: ['/d'] });
});

test('nothing named: the legacy config.json and conf.d, whichever exist', () => {
  const both = existing('/etc/sensu/config.json', '/etc/sensu/conf.d');
  assert.deepEqual(resolveSources({}, both), { configFile: '/etc/sensu/config.json', configDirs: ['/etc/sensu/conf.d'] });
  assert.deepEqual(resolveSources({}, existing('/etc/sensu/config.json')), { configFile: '/etc/sensu/config.json', configDirs: [] });
  assert.deepEqual(resolveSources({ legacyRoot: '/opt/s' }, existing('/opt/s/conf.d')), { configFile: null, configDirs: ['/opt/s/conf.d'] });
});

test('none of the defaults exists: ./conf.d, saying where it looked when that is missing too', () => {
  assert.deepEqual(resolveSources({}, existing('conf.d')), { configFile: null, configDirs: ['conf.d'] });
  assert.deepEqual(resolveSources({}, existing()), {
    configFile: null,
    configDirs: ['conf.d'],
    searched: ['/etc/sensu/config.json', '/etc/sensu/conf.d', 'conf.d'],
  });
  assert.deepEqual(resolveSources({ configFile: false }, existing()), { configFile: null, configDirs: ['conf.d'], searched: ['conf.d'] });
});
