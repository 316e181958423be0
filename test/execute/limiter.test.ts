// sensu.spawn.limit: at most `limit` tasks run at once, the rest wait in arrival order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Limiter } from '../../src/execute/limiter.js';

/** A task that runs until its `finish` is called. */
function gate() {
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return { task: () => done, finish };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('at most limit run at once; the waiting start in arrival order as running ones finish', async () => {
  const limiter = new Limiter(2);
  const gates = [gate(), gate(), gate(), gate()];
  const started: number[] = [];
  const results = gates.map((g, i) => limiter.run(() => (started.push(i), g.task())));
  await settle();
  assert.deepEqual([started, limiter.active, limiter.queued], [[0, 1], 2, 2]);
  gates[1]!.finish('one');
  await settle();
  assert.deepEqual(started, [0, 1, 2]);
  gates[0]!.finish('zero');
  gates[2]!.finish('two');
  gates[3]!.finish('three');
  assert.deepEqual(await Promise.all(results), ['zero', 'one', 'two', 'three']);
  assert.deepEqual([limiter.active, limiter.queued], [0, 0]);
});

test('a task that fails frees its place and its error reaches the caller', async () => {
  const limiter = new Limiter(1);
  await assert.rejects(
    limiter.run(async () => {
      throw new Error('spawn failed');
    }),
    /^Error: spawn failed$/,
  );
  assert.equal(await limiter.run(async () => 'next'), 'next');
});

test('raising the limit starts waiting tasks at once; the limit is never below 1', async () => {
  const limiter = new Limiter(1);
  const gates = [gate(), gate(), gate()];
  const runs = gates.map((g) => limiter.run(g.task));
  await settle();
  assert.equal(limiter.active, 1);
  limiter.setLimit(3);
  await settle();
  assert.deepEqual([limiter.active, limiter.queued], [3, 0]);
  gates.forEach((g) => g.finish('x'));
  await Promise.all(runs);
  limiter.setLimit(0);
  assert.equal(await limiter.run(async () => 'still runs'), 'still runs');
});
