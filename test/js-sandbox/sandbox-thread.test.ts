import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxThread } from '../../src/js-sandbox/sandbox-thread.js';
import type { Limits } from '../../src/js-sandbox/protocol.js';

const LIMITS: Limits = { budgetMs: 25, hardCapMs: 2000, readCapMs: 2000, memoryBytes: 32 << 20, stackBytes: 128 << 10 };
const input = (scope: Record<string, unknown> = {}) => JSON.stringify({ now: 0, self: 'web-1', deps: {}, scope });

// One thread for the file: loading QuickJS is the slow part.
let thread: SandboxThread;
before(async () => {
  thread = new SandboxThread(LIMITS);
  await thread.ready;
});
after(() => thread.stop());

test('once loaded the thread is usable and answers each call with its own number', async () => {
  assert.equal(thread.usable, true);
  assert.equal(await thread.awaitReady(10), true);
  const first = await thread.call('event.check.status == 2', input({ event: { check: { status: 2 } } }));
  assert.equal(first?.matched, true);
  assert.equal(first?.needs, '');
  assert.equal(first?.error, undefined);
  const second = await thread.call('event.check.status == 2', input({ event: { check: { status: 0 } } }));
  assert.equal(second?.matched, false);
  assert.equal(second!.seq, first!.seq + 1);
  assert.equal(thread.expressionStarted(), true, 'the last request got past reading its input');
});

test("an expression's error is its answer; the thread goes on", async () => {
  const reply = await thread.call('throw new TypeError("nope")', input());
  assert.deepEqual(reply?.error, { kind: 'error', message: 'TypeError: nope' });
  assert.equal((await thread.call('1', input()))?.matched, true);
});

test('a loop past its CPU budget is stopped by the thread itself and reported as a timeout', async () => {
  const reply = await thread.call('while (true) {}', input());
  assert.deepEqual(reply?.error, { kind: 'timeout', message: 'exceeded its CPU budget of 25 ms' });
  assert.equal(thread.usable, true);
  assert.equal((await thread.call('2 > 1', input()))?.matched, true, 'the next evaluation runs on a fresh runtime');
});

test('a stopped thread is no longer usable and answers at once that it stopped', async () => {
  const other = new SandboxThread(LIMITS);
  assert.equal(await other.awaitReady(60_000), true);
  other.stop();
  assert.equal(other.usable, false);
  assert.deepEqual(await other.call('true', input()), {
    seq: 1,
    retire: true,
    error: { kind: 'error', message: 'sandbox failure: the thread stopped' },
  });
});

test('waiting for a thread that has not loaded gives up after the time given', async () => {
  const slow = new SandboxThread(LIMITS);
  try {
    assert.equal(await slow.awaitReady(0), false);
  } finally {
    slow.stop();
  }
});
