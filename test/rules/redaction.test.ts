// The one redaction policy's matching: case-blind, ignoring what is not a letter or digit, Sensu Go's own form
// too; an own `redact` list adds to the defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_KEYS, DEFAULT_REDACT_KEYS, redactKeysWith } from '../../src/rules/redaction.js';
import { redact, redactOutput, redactedLabels } from '../../src/config/redact.js';

test("Sensu Go's nine default keys come first in the one default list, then the legacy ones", () => {
  assert.deepEqual(DEFAULT_REDACT_KEYS.slice(0, 9), [
    'password',
    'passwd',
    'pass',
    'api_key',
    'api_token',
    'access_key',
    'secret_key',
    'private_key',
    'secret',
  ]);
  assert.ok(DEFAULT_REDACT_KEYS.includes('community'));
});

test('a key matches whatever its case and its characters beyond letters and digits', () => {
  for (const key of ['Password', 'API-KEY', 'Secret_Key', 'api_key', 'ApiKey', 'api.key', 'PRIVATE KEY', 'Access-Key-Id', 'pass_1', 'Community'])
    assert.equal(DEFAULT_KEYS.has(key), true, key);
  for (const key of ['', 'team', 'passes', 'password2', 'PASS1', 'keypass', 'region', '-', 'apikeys']) assert.equal(DEFAULT_KEYS.has(key), false, key);
});

test('an own list adds to the defaults and matches the same way: `Db-Pass` covers db_pass and DBPASS', () => {
  const keys = redactKeysWith(['Db-Pass', 42]);
  for (const key of ['db_pass', 'DBPASS', 'db-pass', 'password']) assert.equal(keys.has(key), true, key);
  assert.equal(keys.has('db_host'), false);
  assert.equal(redactKeysWith([]), DEFAULT_KEYS);
  assert.equal(redactKeysWith('Db-Pass'), DEFAULT_KEYS, 'not a list: the defaults');
});

test('every helper applies the one policy: labels, bodies at any depth, settings with an own list', () => {
  const labels = { Password: 'a', 'API-KEY': 'b', Secret_Key: 'c', api_key: 'd', db_pass: 'e', DBPASS: 'f', team: 'g' };
  assert.deepEqual(redactedLabels({ name: 'e1', labels }, ['Db-Pass']).labels, {
    Password: 'REDACTED',
    'API-KEY': 'REDACTED',
    Secret_Key: 'REDACTED',
    api_key: 'REDACTED',
    db_pass: 'REDACTED',
    DBPASS: 'REDACTED',
    team: 'g',
  });
  const entity = { redact: ['Db-Pass'], metadata: { labels: { DBPASS: 'x', 'API-KEY': 'y', team: 'z' } } };
  assert.deepEqual((redactOutput({ items: [entity] }) as { items: (typeof entity)[] }).items[0]!.metadata.labels, {
    DBPASS: 'REDACTED',
    'API-KEY': 'REDACTED',
    team: 'z',
  });
  assert.deepEqual(redact({ 'API-KEY': 1, favourite: 2, password: 3, rack: 4 }, ['favourite']), {
    'API-KEY': 'REDACTED',
    favourite: 'REDACTED',
    password: 'REDACTED',
    rack: 4,
  });
});
