// The Env provider: a secret's id names an environment variable of the process, never one of its own credentials.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envSecret } from '../../src/secrets/env-provider.js';
import { SecretFailure } from '../../src/secrets/failure.js';

const failure = (reason: string) => (error: unknown) => {
  assert.ok(error instanceof SecretFailure);
  assert.equal(error.reason, reason);
  assert.equal(error.message, reason);
  assert.equal(error.outage, false, 'a missing variable is not a provider outage');
  return true;
};

test('a set variable is served, an empty one too', () => {
  assert.equal(envSecret('DB_TOKEN', { DB_TOKEN: 'abc' }), 'abc');
  assert.equal(envSecret('EMPTY', { EMPTY: '' }), '');
});

test('a variable not set is refused with its name', () => {
  assert.throws(() => envSecret('MISSING', {}), failure('the environment variable MISSING is not set in the checkbridge process'));
  assert.throws(() => envSecret('toString', {}), failure('the environment variable toString is not set in the checkbridge process'));
});

test("the daemon's own credentials are refused, set or not, without their values", () => {
  const env = { CHECKBRIDGE_ADMIN_PASSWORD: 'hunter2', PGPASSWORD: 'pg', RABBITMQ_URL: 'amqp://u:p@h' };
  for (const name of ['CHECKBRIDGE_ADMIN_PASSWORD', 'PGPASSWORD', 'RABBITMQ_URL', 'REDIS_URL', 'CHECKBRIDGE_STORE_DSN']) {
    assert.throws(
      () => envSecret(name, env),
      failure(`the environment variable ${name} is one of checkbridge's own credentials, which the env provider does not serve`),
      name,
    );
  }
});

test('process.env is read when no environment is given', (t) => {
  process.env.CB_TEST_ENV_SECRET = 'from-process';
  t.after(() => delete process.env.CB_TEST_ENV_SECRET);
  assert.equal(envSecret('CB_TEST_ENV_SECRET'), 'from-process');
});
