// The reach probe's thread: with PostgreSQL answering, each answer's time is written and no probe is left waiting;
// with nothing answering, the time the waiting probe was sent stays and no answer is ever written.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { postgresForFile } from '../../servers/postgres.js';
import { until } from '../../helpers/wait.js';

const { server, missing } = await postgresForFile('probe');

function probe(t: TestContext, dsn: string): BigInt64Array {
  const times = new BigInt64Array(new SharedArrayBuffer(16));
  const worker = new Worker(new URL('../../../src/store/postgres/reach-probe-worker.js', import.meta.url), {
    workerData: { dsn, env: {}, times: times.buffer },
  });
  t.after(() => worker.terminate());
  return times;
}

test('PostgreSQL answering: the probe writes when it was last answered, and none is left waiting', async (t) => {
  if (!server) return void t.skip(missing!);
  const started = BigInt(Date.now());
  const times = probe(t, server.url());
  assert.ok(await until(() => Atomics.load(times, 1) > 0n, 15_000), 'answered');
  const first = Atomics.load(times, 1);
  assert.ok(first >= started);
  assert.ok(await until(() => Atomics.load(times, 1) > first, 15_000), 'probed again');
  // A probe may be waiting again by now (one each 100 ms): it is cleared once answered.
  assert.ok(await until(() => Atomics.load(times, 0) === 0n, 15_000), 'no probe left waiting');
});

test('nothing listening: the first unanswered probe’s time stays, and no answer is written', async (t) => {
  const port = 1; // nothing listens on port 1, and nothing else can take it meanwhile
  const started = BigInt(Date.now());
  const times = probe(t, `postgres://postgres@127.0.0.1:${port}/none`);
  assert.ok(await until(() => Atomics.load(times, 0) > 0n, 15_000), 'a probe is waiting');
  const sent = Atomics.load(times, 0);
  assert.ok(sent >= started);
  // Several refused attempts later: still the first one's time, still no answer.
  await new Promise((resolve) => setTimeout(resolve, 350));
  assert.equal(Atomics.load(times, 0), sent);
  assert.equal(Atomics.load(times, 1), 0n);
});
