import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue } from '../../src/js-sandbox/fair-queue.js';

test('turns rotate by namespace; a namespace past its time waits while others go; a full queue is refused', async () => {
  const throttled: string[] = [];
  const queue = new FairQueue({ rateMs: 1000, burstMs: 20, maxQueued: 2 }, (ns) => throttled.push(ns));
  const order: string[] = [];
  assert.equal(await queue.acquire('greedy'), 'granted');
  // Spent far more than it had: it now waits about 60 ms of refill.
  const next = queue.acquire('greedy').then((turn) => order.push(`greedy ${turn}`));
  const third = queue.acquire('greedy').then((turn) => order.push(`greedy ${turn}`));
  assert.equal(await queue.acquire('greedy'), 'refused', 'two already waiting');
  queue.release('greedy', 80);
  assert.equal(await queue.acquire('polite'), 'granted');
  order.push('polite granted');
  queue.release('polite', 1);
  await next;
  queue.release('greedy', 1);
  await third;
  queue.release('greedy', 1);
  assert.deepEqual(order, ['polite granted', 'greedy granted', 'greedy granted']);
  assert.ok(throttled.includes('greedy') && !throttled.includes('polite'));
});
