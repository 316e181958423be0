import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splayHash, splayMs, firstInstant } from '../../src/schedule/splay.js';

test('MD5 hashes of the legacy splay vectors', () => {
  assert.equal(splayHash('test'), 0x73d32146cd6b8f09n);
  assert.equal(splayHash('i-424242:test'), 0x90c0b8345a882b61n);
  assert.equal(splayHash('check_cpu'), 0x27b62467e7e5554fn);
  assert.equal(splayHash('web01:check_cpu'), 0xb7e7d337295cd8ban);
});

test('spec vectors: server "test" 17.601 / 3497.601, client "i-424242:test" 3.321 / 783.321', () => {
  const now = 1414213569032;
  assert.equal(splayMs('test', 60, now), 17601);
  assert.equal(splayMs('test', 3600, now), 3497601);
  assert.equal(splayMs('i-424242:test', 60, now), 3321);
  assert.equal(splayMs('i-424242:test', 3600, now), 783321);
});

test('reference vectors at now_ms = 1700000000000', () => {
  const now = 1700000000000;
  assert.deepEqual(
    [splayMs('test', 60, now), splayMs('i-424242:test', 60, now), splayMs('i-424242:test', 10, now), splayMs('web01:check_cpu', 60, now)],
    [6633, 52353, 2353, 6490],
  );
});

test('the phase is the same whatever the start time, so restarts do not move it', () => {
  const a = firstInstant('disk', 60, 1_000_000_000_000);
  const b = firstInstant('disk', 60, 1_000_000_000_000 + 12_345);
  assert.equal((b - a) % 60_000, 0);
  assert.ok(b >= 1_000_000_000_000 + 12_345 && b - (1_000_000_000_000 + 12_345) < 60_000);
});
