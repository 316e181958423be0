// The daemon's own credentials by environment variable name: never handed to a command nor served by the Env provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDaemonCredential, withoutCredentials } from '../../src/config/credentials.js';

test('the credentials are named by one pattern', () => {
  for (const name of [
    'CHECKBRIDGE_ADMIN_PASSWORD',
    'CHECKBRIDGE_API_KEY',
    'CHECKBRIDGE_VAULT_TOKEN',
    'CHECKBRIDGE_JWT_SECRET',
    'CHECKBRIDGE_STORE_DSN',
    'CHECKBRIDGE_PASSWORD',
    'PGPASSWORD',
    'RABBITMQ_URL',
    'REDIS_URL',
    'REDIS_SENTINEL_URLS',
  ])
    assert.equal(isDaemonCredential(name), true, name);
  for (const name of ['CHECKBRIDGE_LOG_LEVEL', 'PATH', 'PGHOST', 'PGPASSWORDX', 'MY_RABBITMQ_URL', 'checkbridge_admin_password', 'PASSWORD', 'REDIS_URLS'])
    assert.equal(isDaemonCredential(name), false, name);
});

test('withoutCredentials copies the environment without them, leaving the original alone', () => {
  const env = { PATH: '/bin', PGPASSWORD: 'pw', CHECKBRIDGE_API_KEY: 'k', CHECKBRIDGE_LOG_LEVEL: 'info' };
  assert.deepEqual(withoutCredentials(env), { PATH: '/bin', CHECKBRIDGE_LOG_LEVEL: 'info' });
  assert.equal(env.PGPASSWORD, 'pw');
});
