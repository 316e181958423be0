// The injected clocks: the manual one tests drive, and the system one's timers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, systemClock } from '../../src/schedule/clock.js';

test('a manual clock moves only when told, firing due timers in instant order, ties in the order they were set', () => {
  const clock = new ManualClock(1000);
  const fired: string[] = [];
  clock.at(3000, () => fired.push(`c@${clock.now()}`));
  clock.at(2000, () => fired.push(`a@${clock.now()}`));
  clock.at(2000, () => fired.push(`b@${clock.now()}`));
  const cancelled = clock.at(1500, () => fired.push('cancelled'));
  cancelled.cancel();
  assert.equal(clock.now(), 1000);
  clock.advanceTo(2500);
  assert.deepEqual(fired, ['a@2000', 'b@2000']);
  assert.equal(clock.now(), 2500);
  clock.advanceBy(500);
  assert.deepEqual(fired, ['a@2000', 'b@2000', 'c@3000']);
});

test('a timer set by a timer fires in the same advance when it is due; a past instant fires at the next advance', () => {
  const clock = new ManualClock(0);
  const fired: number[] = [];
  clock.at(10, () => {
    fired.push(clock.now());
    clock.at(20, () => fired.push(clock.now()));
    clock.at(5, () => fired.push(clock.now()));
  });
  clock.advanceTo(30);
  assert.deepEqual(fired, [10, 10, 20], 'the one set in the past fires at once, without moving time back');
  clock.advanceTo(10);
  assert.equal(clock.now(), 30, 'time never goes back');
});

test('the system clock runs a passed instant at once and a cancelled timer never', async () => {
  let ran = 0;
  systemClock.at(Date.now() - 1, () => ran++);
  assert.equal(ran, 1, 'synchronously');
  const handle = systemClock.at(Date.now() + 20, () => ran++);
  handle.cancel();
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(ran, 1);
});
