// The password pool's worker thread on its own: scrypt hashes and checks, bcrypt checks, and an error for a hash asking too much.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import bcryptjs from 'bcryptjs';
import type { PasswordJob } from '../../src/auth/password-worker.js';

/** The worker module next to this test's compiled copy, answering one job at a time. */
function worker(t: TestContext) {
  const thread = new Worker(new URL('../../src/auth/password-worker.js', import.meta.url));
  t.after(() => thread.terminate());
  return (job: PasswordJob) =>
    new Promise<{ result?: string | boolean; error?: string }>((resolve) => {
      thread.once('message', resolve);
      thread.postMessage(job);
    });
}

test('a hash is scrypt with its parameters and a fresh salt, and checks against the password alone', async (t) => {
  const run = worker(t);
  const first = String((await run({ op: 'hash', password: 'pw-1', N: 1024, r: 8, p: 1 })).result);
  const second = String((await run({ op: 'hash', password: 'pw-1', N: 1024, r: 8, p: 1 })).result);
  assert.match(first, /^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
  assert.notEqual(first, second, 'each hash has its own salt');
  assert.deepEqual(await run({ op: 'scrypt', password: 'pw-1', stored: first }), { result: true });
  assert.deepEqual(await run({ op: 'scrypt', password: 'pw-2', stored: first }), { result: false });
});

test('a bcrypt hash, as sensuctl writes one, is checked', async (t) => {
  const run = worker(t);
  const stored = bcryptjs.hashSync('sensuctl-pw', 4);
  assert.deepEqual(await run({ op: 'bcrypt', password: 'sensuctl-pw', stored }), { result: true });
  assert.deepEqual(await run({ op: 'bcrypt', password: 'other', stored }), { result: false });
});

test('a stored hash asking for more memory than allowed answers an error instead of taking it, and the worker goes on', async (t) => {
  const run = worker(t);
  const greedy = 'scrypt$1048576$8$1$c2FsdA==$aGFzaA==';
  const answer = await run({ op: 'scrypt', password: 'x', stored: greedy });
  assert.equal(answer.result, undefined);
  assert.equal(typeof answer.error, 'string');
  assert.match(String((await run({ op: 'hash', password: 'x', N: 1024, r: 8, p: 1 })).result), /^scrypt\$/);
});
