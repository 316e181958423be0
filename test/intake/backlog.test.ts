// The intake backlog's backpressure on its own: when the doors are pushed back, when let in again, and who hears it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backlog, HIGH_WATER, IntakeFull, LOW_WATER, RETRY_AFTER_S } from '../../src/intake/backlog.js';

/** A backlog over a queue whose length the test sets. */
function backlogOf(waiting = 0) {
  const queue = { waiting };
  return { queue, backlog: new Backlog(() => queue.waiting) };
}

test('the size counts what waits and what is being committed', () => {
  const { queue, backlog } = backlogOf(5);
  assert.equal(backlog.size, 5);
  backlog.started(3);
  assert.equal(backlog.size, 8);
  queue.waiting = 2;
  assert.equal(backlog.size, 5);
  backlog.ended(3);
  assert.equal(backlog.size, 2);
});

test('the doors are let in below the high water mark and pushed back from it on', () => {
  const { queue, backlog } = backlogOf(HIGH_WATER - 1);
  assert.equal(backlog.full, false);
  queue.waiting = HIGH_WATER;
  assert.equal(backlog.full, true);
  queue.waiting = 0;
  backlog.started(HIGH_WATER + 10);
  assert.equal(backlog.full, true, 'items being committed count as much as waiting ones');
});

test('once pushed back, the doors stay so until the backlog is down to the low water mark', () => {
  const { queue, backlog } = backlogOf(HIGH_WATER);
  assert.equal(backlog.full, true);
  queue.waiting = HIGH_WATER - 1;
  assert.equal(backlog.full, true, 'just below the high mark is still full after a push back');
  queue.waiting = LOW_WATER + 1;
  assert.equal(backlog.full, true);
  queue.waiting = LOW_WATER;
  assert.equal(backlog.full, false);
});

test('a backlog that only climbed to between the marks never pushes back', () => {
  const { queue, backlog } = backlogOf(LOW_WATER + 1);
  assert.equal(backlog.full, false);
  queue.waiting = HIGH_WATER - 1;
  assert.equal(backlog.full, false);
});

test('the drained listeners hear once when commits bring a pushed-back backlog down to the low mark', () => {
  const { backlog } = backlogOf(0);
  const heard: string[] = [];
  backlog.onDrained(() => heard.push('a'));
  backlog.onDrained(() => heard.push('b'));
  backlog.started(HIGH_WATER);
  assert.equal(backlog.full, true);
  backlog.ended(HIGH_WATER - LOW_WATER - 1);
  assert.deepEqual(heard, [], 'still above the low mark');
  backlog.ended(1);
  assert.deepEqual(heard, ['a', 'b']);
  assert.equal(backlog.full, false);
  backlog.started(10);
  backlog.ended(10);
  assert.deepEqual(heard, ['a', 'b'], 'not told again without a new push back');
});

test('commits ending without a push back tell no listener', () => {
  const { backlog } = backlogOf(0);
  let heard = 0;
  backlog.onDrained(() => heard++);
  backlog.started(HIGH_WATER - 1);
  assert.equal(backlog.full, false);
  backlog.ended(HIGH_WATER - 1);
  assert.equal(heard, 0);
});

test('a push back and drain can repeat, each drain heard', () => {
  const { backlog } = backlogOf(0);
  let heard = 0;
  backlog.onDrained(() => heard++);
  for (let round = 1; round <= 2; round++) {
    backlog.started(HIGH_WATER);
    assert.equal(backlog.full, true);
    backlog.ended(HIGH_WATER);
    assert.equal(heard, round);
  }
});

test('the refusal tells the caller to retry after the set delay', () => {
  const error = new IntakeFull();
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'IntakeFull');
  assert.equal(error.retryAfterS, RETRY_AFTER_S);
  assert.match(error.message, /intake is full/);
  assert.ok(LOW_WATER < HIGH_WATER, 'the marks leave a gap for hysteresis');
});
