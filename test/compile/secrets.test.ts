// The client's secret attributes when compiling: the legacy redact keys plus the client's own list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretPath, redactDeep, secretKeysOf } from '../../src/compile/secrets.js';

test('the default keys and the client’s own redact list name secrets', () => {
  const keys = secretKeysOf({ name: 'web-1', redact: ['snmp_community_x'] });
  assert.equal(keys.has('password'), true);
  assert.equal(keys.has('snmp_community_x'), true);
  assert.equal(keys.has('port'), false);
  assert.equal(secretKeysOf({ name: 'web-1' }).has('snmp_community_x'), false);
});

test('a dotted path is secret when any of its segments is', () => {
  const keys = secretKeysOf({});
  assert.equal(isSecretPath('mysql.password', keys), true);
  assert.equal(isSecretPath('api_key.value', keys), true);
  assert.equal(isSecretPath('mysql.port', keys), false);
});

test('redactDeep replaces secret values at any depth and through arrays, without changing its input', () => {
  const keys = secretKeysOf({ redact: ['token'] });
  const value = { mysql: { user: 'u', password: 'p' }, list: [{ token: 't', n: 1 }, 'text'], n: null };
  assert.deepEqual(redactDeep(value, keys), { mysql: { user: 'u', password: 'REDACTED' }, list: [{ token: 'REDACTED', n: 1 }, 'text'], n: null });
  assert.equal(value.mysql.password, 'p');
});
