import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PREFIX, param } from '../../../src/api/dashboard/deps.js';

test('param: a query parameter given once is its text', () => {
  assert.equal(param({ check: 'disk', hours: '12' }, 'check'), 'disk');
  assert.equal(param({ q: '' }, 'q'), '');
});

test('param: an absent, repeated or non-text parameter is the empty text', () => {
  assert.equal(param({ check: 'disk' }, 'client'), '');
  assert.equal(param({ check: ['disk', 'cpu'] }, 'check'), '', 'repeated: the query parser gives a list');
  assert.equal(param({ limit: 5 }, 'limit'), '');
  for (const query of [undefined, null, 'check=disk', 42]) assert.equal(param(query, 'check'), '', String(query));
});

test('param: only own parameters count, never inherited members', () => {
  assert.equal(param({}, 'toString'), '');
  assert.equal(param(Object.create({ check: 'inherited' }) as object, 'check'), '');
});

test('the dashboard routes live under /api/checkbridge/v1', () => {
  assert.equal(PREFIX, '/api/checkbridge/v1');
});
