// A result's severity and its rounded duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { round3, severityOf } from '../../src/execute/result.js';

test('statuses 0, 1 and 2 are ok, warning and critical; anything else is unknown', () => {
  assert.deepEqual([0, 1, 2].map(severityOf), ['ok', 'warning', 'critical']);
  for (const status of [3, 127, -1, -2, 1.5, NaN]) assert.equal(severityOf(status), 'unknown', String(status));
});

test('durations round to milliseconds', () => {
  assert.equal(round3(1.23456), 1.235);
  assert.equal(round3(0.0004), 0);
  assert.equal(round3(2), 2);
  assert.equal(round3(59.99951), 60);
});
