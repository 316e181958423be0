import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { cpuClock, currentTaskId } from '../../src/js-sandbox/thread-cpu.js';

const linux = process.platform === 'linux';
const processMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

test('the main thread is the task whose id is the process id; a worker thread is another task', { skip: !linux }, async () => {
  assert.equal(currentTaskId(), process.pid);
  const module = fileURLToPath(new URL('../../src/js-sandbox/thread-cpu.js', import.meta.url));
  const worker = new Worker(`import(${JSON.stringify(module)}).then((m) => require('node:worker_threads').parentPort.postMessage(m.currentTaskId()));`, {
    eval: true,
  });
  const [id] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  assert.ok(Number.isInteger(id) && id > 0 && id !== process.pid, String(id));
});

test("a task's clock counts in 10 ms ticks and advances as the thread works", { skip: !linux }, () => {
  const clock = cpuClock(currentTaskId());
  const start = clock();
  assert.equal(start % 10, 0);
  let now = start;
  // Busy until the kernel has counted a tick more: bounded, so a clock that never moves fails instead of hanging.
  for (let spins = 0; now === start && spins < 1e4; spins++) {
    for (let i = 0; i < 1e5; i++) Math.sqrt(i);
    now = clock();
  }
  assert.ok(now > start, `${now} > ${start}`);
  assert.equal(now % 10, 0);
});

test("without a task, or one that cannot be read, the process's CPU time is read", () => {
  for (const task of [null, 2 ** 31 - 1]) {
    const before = processMs();
    const read = cpuClock(task)();
    const after = processMs();
    assert.ok(read >= before && read <= after, `${before} <= ${read} <= ${after}`);
  }
});
