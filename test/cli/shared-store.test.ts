import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Command } from 'commander';
import { sharedStoreDsn, withSharedStoreOption } from '../../src/cli/shared-store.js';
import { CheckbridgeError } from '../../src/errors.js';
import { settingsOf } from '../helpers/settings.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const none = settingsOf({});
const configured = settingsOf({ checkbridge: { store: { dsn: 'postgres://settings/db' } } });

test('--store-dsn and --store-dsn-file are options of the command', () => {
  const command = withSharedStoreOption(new Command('run').exitOverride());
  command.parse(['--store-dsn', 'postgres://a', '--store-dsn-file', '/run/dsn'], { from: 'user' });
  assert.deepEqual(command.opts(), { storeDsn: 'postgres://a', storeDsnFile: '/run/dsn' });
});

test('nothing given anywhere is the embedded SQLite store', () => {
  assert.equal(sharedStoreDsn({}, none, {}), null);
  assert.equal(sharedStoreDsn({}, settingsOf({ checkbridge: { store: { dsn: '' } } }), {}), null);
});

test('the flag, then its file, then the variables, then checkbridge.store.dsn', (t) => {
  const dir = makeTree({ dsn: 'postgres://file/db\n', envdsn: 'postgres://envfile/db' });
  t.after(() => removeTree(dir));
  const env = { CHECKBRIDGE_STORE_DSN: 'postgres://env/db' };
  assert.equal(sharedStoreDsn({ storeDsn: 'postgres://flag/db' }, configured, env), 'postgres://flag/db');
  assert.equal(sharedStoreDsn({ storeDsnFile: join(dir, 'dsn') }, configured, env), 'postgres://file/db');
  assert.equal(sharedStoreDsn({}, configured, env), 'postgres://env/db');
  assert.equal(sharedStoreDsn({}, configured, { CHECKBRIDGE_STORE_DSN_FILE: join(dir, 'envdsn') }), 'postgres://envfile/db');
  assert.equal(sharedStoreDsn({}, configured, {}), 'postgres://settings/db');
});

test('a DSN in the settings that is not a string refuses the configuration', () => {
  assert.throws(
    () => sharedStoreDsn({}, settingsOf({ checkbridge: { store: { dsn: { host: 'db' } } } }), {}),
    (error: unknown) =>
      error instanceof CheckbridgeError && error.code === 'CB_CONFIG_REFUSED' && /checkbridge\.store\.dsn must be a string/.test(error.message),
  );
});

test('the flag and its file together are a usage error', () => {
  assert.throws(() => sharedStoreDsn({ storeDsn: 'postgres://a', storeDsnFile: '/f' }, none, {}), /--store-dsn and --store-dsn-file are both given/);
});
