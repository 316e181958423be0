// The result ids a checkbridge client gives its results: only its own form is taken as one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isClientResultId, RESULT_ID_RETENTION_MS } from '../../src/legacy/result-id.js';

test('a random (version 4) UUID in lower case is a client result id', () => {
  for (let i = 0; i < 20; i++) assert.equal(isClientResultId(randomUUID()), true);
  assert.equal(isClientResultId('0f8fad5b-d9cb-469f-a165-70867728950e'), true);
});

test('anything else is not: upper case, other versions and variants, other lengths, other types', () => {
  for (const value of [
    '0F8FAD5B-D9CB-469F-A165-70867728950E',
    '0f8fad5b-d9cb-169f-a165-70867728950e',
    '0f8fad5b-d9cb-469f-c165-70867728950e',
    '0f8fad5b-d9cb-469f-a165-70867728950',
    '0f8fad5b-d9cb-469f-a165-70867728950e0',
    '0f8fad5bd9cb469fa16570867728950e',
    ' 0f8fad5b-d9cb-469f-a165-70867728950e'.slice(0, 36),
    'result-1',
    42,
    null,
    undefined,
    { id: '0f8fad5b-d9cb-469f-a165-70867728950e' },
  ])
    assert.equal(isClientResultId(value), false, JSON.stringify(value));
  assert.equal(RESULT_ID_RETENTION_MS, 900_000);
});
