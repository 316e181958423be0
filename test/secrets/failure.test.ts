// Why a secret could not be read: a reason without the value, and whether the provider itself is down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SecretFailure } from '../../src/secrets/failure.js';

test('a failure carries its reason as its message and says whether it is an outage', () => {
  const missing = new SecretFailure('secret api-token: not found', false);
  assert.ok(missing instanceof Error);
  assert.equal(missing.message, 'secret api-token: not found');
  assert.equal(missing.reason, missing.message);
  assert.equal(missing.outage, false);
  assert.equal(new SecretFailure('vault unavailable', true).outage, true);
});
