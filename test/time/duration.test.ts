// Durations as settings and flags write them: Go-style ("1h30m") or ISO-8601 ("PT1H30M").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/time/duration.js';

test('Go-style durations: each unit, summed in any combination, with decimals', () => {
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('2d'), 172_800_000);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('1d2h3m4s5ms'), 86_400_000 + 7_200_000 + 180_000 + 4000 + 5);
});

test('ISO-8601 durations: days and a time part', () => {
  assert.equal(parseDuration('PT1H30M'), 5_400_000);
  assert.equal(parseDuration('P1D'), 86_400_000);
  assert.equal(parseDuration('P1DT2S'), 86_402_000);
  assert.equal(parseDuration('pt0.5s'), 500, 'either case');
});

test('anything else is unreadable (null), not partly read', () => {
  for (const text of ['', '90', 'm', '1x', '1h 30m', '-5s', '5s!', 'P', 'PT', 'P1DT', 'soon']) assert.equal(parseDuration(text), null, JSON.stringify(text));
});
