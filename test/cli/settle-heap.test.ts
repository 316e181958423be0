import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { settleHeapAfterStart } from '../../src/cli/settle-heap.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';

test('after the delay one full collection runs and its effect is logged, the young generation and RSS before and after', async () => {
  const capture = capturedLogger();
  settleHeapAfterStart(capture.logger, 10, 1);
  assert.ok(await until(() => capture.messages().includes("start-up's memory collected"), 10_000), 'logged');
  const line = capture.lines.find((l) => l.msg === "start-up's memory collected") as { before: Record<string, number>; after: Record<string, number> };
  for (const figures of [line.before, line.after]) {
    assert.ok(figures.young_mb! >= 0 && figures.rss_mb! > 0, JSON.stringify(figures));
  }
});

test('nothing runs before the delay, and the timer does not keep the process alive', async () => {
  const capture = capturedLogger();
  settleHeapAfterStart(capture.logger, 60_000, 1);
  await sleep(50);
  assert.deepEqual(capture.messages(), []);
  // The collector stays out of reach of the daemon's own code once taken.
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
});
