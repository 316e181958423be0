// The reconnect rhythm and failover order of the legacy transports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReconnectRhythm, FailoverOrder } from '../../src/transport/reconnect.js';

test('reconnect waits grow by 2 s up to 20 s; failover entries are all used before any repeats', () => {
  const rhythm = new ReconnectRhythm();
  assert.deepEqual(
    Array.from({ length: 12 }, () => rhythm.next() / 1000),
    [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 20, 20],
  );
  rhythm.reset();
  assert.equal(rhythm.next(), 2000);
  const order = new FailoverOrder(['a', 'b', 'c']);
  assert.deepEqual([order.next(), order.next(), order.next()].sort(), ['a', 'b', 'c']);
});
