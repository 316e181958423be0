// The token bucket that paces secret provider reads, as Go's rate.Limiter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter } from '../../src/secrets/rate-limiter.js';
import { ManualClock } from '../../src/schedule/clock.js';

test('the burst goes at once; then each request waits for its token, 1/limit seconds apart', () => {
  const clock = new ManualClock(1_000_000);
  const limiter = new RateLimiter(2, 3, clock);
  assert.deepEqual([limiter.reserve(0), limiter.reserve(0), limiter.reserve(0)], [0, 0, 0]);
  assert.equal(limiter.reserve(10_000), 500, 'the next token in half a second');
  assert.equal(limiter.reserve(10_000), 1000, 'and the one after it is booked behind it');
});

test('a request that would wait longer than it may is refused and takes no token', () => {
  const clock = new ManualClock(0);
  const limiter = new RateLimiter(1, 1, clock);
  assert.equal(limiter.reserve(0), 0);
  assert.equal(limiter.reserve(999), null);
  assert.equal(limiter.reserve(1000), 1000, 'the refused request booked nothing');
});

test('tokens refill with time, never past the burst', () => {
  const clock = new ManualClock(0);
  const limiter = new RateLimiter(10, 2, clock);
  limiter.reserve(0);
  limiter.reserve(0);
  clock.advanceBy(60_000);
  assert.deepEqual([limiter.reserve(0), limiter.reserve(0)], [0, 0]);
  assert.equal(limiter.reserve(0), null, 'a minute idle saves up only the burst');
  clock.advanceBy(100);
  assert.equal(limiter.reserve(0), 0);
});
