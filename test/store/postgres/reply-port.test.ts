// The worker's answers on their port and shared flag: each caller takes its own reply, another awaited one met on the
// way is kept for its waiter, and a blocking wait ends on the reply, on its deadline, or when the caller gives up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, Worker } from 'node:worker_threads';
import { ReplyPort, flagMoved, waitForFlag } from '../../../src/store/postgres/reply-port.js';
import type { SyncReply } from '../../../src/store/postgres/statement-runner.js';

const reply = (id: number): SyncReply => ({ id, changes: [], rows: [{ id }], rowCount: 1, command: 'SELECT' });
const rowsOf = (answer: SyncReply | undefined) => (answer && 'rows' in answer ? answer.rows : undefined);

test('take answers its own reply, keeps an awaited one met on the way for its waiter, and drops a stale one', (t) => {
  const { port1, port2 } = new MessageChannel();
  t.after(() => (port1.close(), port2.close()));
  const replies = new ReplyPort(port1);
  replies.awaited.add(2);
  for (const id of [1, 2, 3]) port2.postMessage(reply(id));
  assert.deepEqual(rowsOf(replies.take(3)), [{ id: 3 }]);
  assert.deepEqual(rowsOf(replies.take(2)), [{ id: 2 }], 'kept for its waiter');
  assert.equal(replies.take(2), undefined, 'taken once');
  assert.equal(replies.take(1), undefined, 'not awaited by anyone: dropped');
});

test('take answers undefined while the reply has not arrived, and the reply once it has', (t) => {
  const { port1, port2 } = new MessageChannel();
  t.after(() => (port1.close(), port2.close()));
  const replies = new ReplyPort(port1);
  assert.equal(replies.take(7), undefined);
  port2.postMessage(reply(7));
  assert.equal(replies.take(7)?.id, 7);
});

test('flagMoved resolves once the flag changes, at once when it already has, and after its time when it does not', async () => {
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const moved = flagMoved(flag, 0, 10_000);
  setTimeout(() => (Atomics.store(flag, 0, 4), Atomics.notify(flag, 0)), 10);
  await moved;
  assert.equal(Atomics.load(flag, 0), 4);
  await flagMoved(flag, 0, 10_000);
  // Nothing moves it: it still resolves (a waiter is never left hanging past its time).
  await flagMoved(flag, 4, 30);
  assert.equal(Atomics.load(flag, 0), 4);
});

test('waitForFlag blocks until another thread posts the id, and otherwise says why it gave up', () => {
  const flag = new Int32Array(new SharedArrayBuffer(8));
  assert.equal(waitForFlag(flag, 0, 10, null), null, 'already posted');
  assert.equal(waitForFlag(flag, 3, 30, null), 'no answer within 0.03 s');
  let asked = 0;
  const reason = waitForFlag(flag, 3, 10_000, (waited) => (++asked && waited > 0 ? 'the probe is silent' : null));
  assert.equal(reason, 'the probe is silent');
  assert.ok(asked >= 1);
  // A thread of its own posts 5 after a moment: the caller wakes on it, its deadline far off.
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads'); const f = new Int32Array(workerData);
     setTimeout(() => { Atomics.store(f, 0, 5); Atomics.notify(f, 0); }, 30);`,
    { eval: true, workerData: flag.buffer },
  );
  try {
    assert.equal(
      waitForFlag(flag, 5, 10_000, () => null),
      null,
    );
    assert.equal(Atomics.load(flag, 0), 5);
  } finally {
    void worker.terminate();
  }
});
