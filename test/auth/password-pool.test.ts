// The password pool alone: a full queue answers busy at once, and a job whose connection closed is never run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionGone, PasswordPool, PasswordsBusy } from '../../src/auth/password-pool.js';
import { eventually } from '../helpers/wait.js';

const hash = { op: 'hash', password: 'p', N: 16384, r: 8, p: 1 } as const;

test('password pool: past its queue a job is refused as busy, and a queued job whose signal aborts leaves the queue unrun', async () => {
  const pool = new PasswordPool(1, 2);
  const running = pool.run(hash);
  const closing = new AbortController();
  const queued = pool.run(hash, closing.signal);
  const kept = pool.run(hash);
  await assert.rejects(pool.run(hash), PasswordsBusy);
  closing.abort();
  await assert.rejects(queued, ConnectionGone);
  assert.equal(pool.queued(), 1, 'the aborted job left the queue at once');
  assert.match(String(await running), /^scrypt\$16384\$8\$1\$/);
  assert.match(String(await kept), /^scrypt\$/);
  const gone = new AbortController();
  gone.abort();
  await assert.rejects(pool.run(hash, gone.signal), ConnectionGone);
});

test("password pool: a priority job (the name's own side) is taken when the other lane is full, and runs before it", async () => {
  const pool = new PasswordPool(1, 2);
  const order: string[] = [];
  const tagged = (tag: string, priority = false) => pool.run(hash, undefined, priority).then(() => order.push(tag));
  const jobs = [tagged('running'), tagged('guess-1'), tagged('guess-2')];
  await assert.rejects(pool.run(hash), PasswordsBusy);
  jobs.push(tagged('owner', true));
  await Promise.all(jobs);
  assert.deepEqual(order, ['running', 'owner', 'guess-1', 'guess-2']);
});

test('password pool: an idle worker exits after its idle time, and the next job starts one again', async () => {
  const pool = new PasswordPool(1, 2, 300);
  assert.equal(pool.workers(), 0, 'no worker before the first job');
  assert.match(String(await pool.run(hash)), /^scrypt\$/);
  assert.equal(pool.workers(), 1);
  const exited = await eventually(
    async () => pool.workers(),
    (n) => n === 0,
    10_000,
  );
  assert.equal(exited, 0, 'the idle worker exited');
  // Taken again before its idle time runs out, a worker stays.
  const [first, second] = [await pool.run(hash), await pool.run(hash)];
  assert.match(String(first) + String(second), /^scrypt\$.*scrypt\$/);
  assert.equal(pool.workers(), 1);
});
