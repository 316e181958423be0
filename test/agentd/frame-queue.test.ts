// The agents' frame queue: frames run in arrival order, a byte budget of them per event-loop turn, a large one alone
// until it is done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FrameQueue } from '../../src/agentd/frame-queue.js';

const KB = 1024;

/** Records which jobs ran and in which batch: jobs run back to back, with no microtask between them, share a batch. */
function recorder() {
  const ran: number[] = [];
  const batches: number[][] = [];
  let open = false;
  const run =
    (id: number, result: Promise<void> = Promise.resolve()) =>
    () => {
      if (!open) {
        batches.push([]);
        open = true;
        queueMicrotask(() => (open = false));
      }
      batches.at(-1)!.push(id);
      ran.push(id);
      return result;
    };
  return { ran, batches, run };
}

/** Waits turns until `done` holds (a queue that stalls fails the test instead of hanging it). */
async function until(done: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await nextTurn();
  assert.ok(done(), 'the queue did not drain');
}

test('frames run in the order they were pushed, none while it is pushed', async () => {
  const queue = new FrameQueue();
  const { ran, run } = recorder();
  for (let id = 0; id < 5; id++) queue.push(100, run(id));
  assert.deepEqual(ran, [], 'nothing runs inside push');
  await until(() => ran.length === 5);
  assert.deepEqual(ran, [0, 1, 2, 3, 4]);
});

test('small frames run together up to the byte budget of a turn, then wait for the next turn', async () => {
  const queue = new FrameQueue();
  const { ran, batches, run } = recorder();
  // 60 KB each: the fifth takes a turn past 256 KB, so each turn runs five.
  for (let id = 0; id < 12; id++) queue.push(60 * KB, run(id));
  await until(() => ran.length === 12);
  assert.deepEqual(batches, [
    [0, 1, 2, 3, 4],
    [5, 6, 7, 8, 9],
    [10, 11],
  ]);
});

test('many tiny frames all run in one turn', async () => {
  const queue = new FrameQueue();
  const { ran, batches, run } = recorder();
  for (let id = 0; id < 200; id++) queue.push(10, run(id));
  await until(() => ran.length === 200);
  assert.equal(batches.length, 1);
});

test('a large frame runs alone: the frames after it wait until it is done, however many turns that takes', async () => {
  const queue = new FrameQueue();
  const { ran, run } = recorder();
  let finish!: () => void;
  const large = new Promise<void>((resolve) => (finish = resolve));
  queue.push(10, run(0));
  queue.push(64 * KB, run(1, large));
  queue.push(10, run(2));
  await until(() => ran.length === 2);
  for (let i = 0; i < 20; i++) await nextTurn();
  assert.deepEqual(ran, [0, 1], 'the frame after the large one waits for it');
  finish();
  await until(() => ran.length === 3);
  assert.deepEqual(ran, [0, 1, 2]);
});

test('a frame just under the large size does not hold the ones after it', async () => {
  const queue = new FrameQueue();
  const { ran, batches, run } = recorder();
  queue.push(64 * KB - 1, run(0, new Promise<void>(() => {})));
  queue.push(10, run(1));
  await until(() => ran.length === 2);
  assert.deepEqual(batches, [[0, 1]], 'ran in the same turn as the unfinished frame');
});

test('a queue that emptied runs frames pushed later', async () => {
  const queue = new FrameQueue();
  const { ran, run } = recorder();
  queue.push(10, run(0));
  await until(() => ran.length === 1);
  await nextTurn();
  queue.push(10, run(1));
  queue.push(64 * KB, run(2));
  queue.push(10, run(3));
  await until(() => ran.length === 4);
  assert.deepEqual(ran, [0, 1, 2, 3]);
});

test('a long queue cut from its front loses no frame and runs none twice', async () => {
  const queue = new FrameQueue();
  const { ran, run } = recorder();
  // Five a turn: thousands of frames keep it busy past the point where it is cut (more than 1,024 run).
  const count = 3_000;
  for (let id = 0; id < count; id++) queue.push(60 * KB, run(id));
  // Pushed while it drains, after the cut.
  await until(() => ran.length >= 2_000);
  for (let id = count; id < count + 10; id++) queue.push(60 * KB, run(id));
  await until(() => ran.length === count + 10);
  await nextTurn();
  assert.deepEqual(
    ran,
    Array.from({ length: count + 10 }, (_, id) => id),
  );
});
