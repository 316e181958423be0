// The daemon's credentials taken out of process.env at start, still read by the daemon's own settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daemonEnvironment, withholdCredentials } from '../../src/config/start-environment.js';

test('withheld credentials leave process.env but stay in the daemon environment', (t) => {
  process.env.CHECKBRIDGE_ADMIN_PASSWORD = 'hunter2';
  process.env.PGPASSWORD = 'pg-secret';
  process.env.CB_TEST_PLAIN = 'plain';
  t.after(() => delete process.env.CB_TEST_PLAIN);
  const names = withholdCredentials();
  assert.ok(names.includes('CHECKBRIDGE_ADMIN_PASSWORD') && names.includes('PGPASSWORD'), names.join(','));
  assert.ok(!names.includes('CB_TEST_PLAIN'));
  assert.equal(process.env.CHECKBRIDGE_ADMIN_PASSWORD, undefined);
  assert.equal(process.env.PGPASSWORD, undefined);
  assert.equal(process.env.CB_TEST_PLAIN, 'plain');
  const env = daemonEnvironment();
  assert.equal(env.CHECKBRIDGE_ADMIN_PASSWORD, 'hunter2');
  assert.equal(env.PGPASSWORD, 'pg-secret');
  assert.equal(env.CB_TEST_PLAIN, 'plain');
  assert.deepEqual(withholdCredentials().sort(), [...names].sort(), 'withholding again keeps what was withheld');
  assert.equal(daemonEnvironment().PGPASSWORD, 'pg-secret');
});
