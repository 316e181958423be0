// One password attempt under the real login limiter: each outcome, which ones count against the limits, and the priority the check is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attemptLogin } from '../../src/auth/login-attempt.js';
import { LoginLimiter } from '../../src/auth/login-limiter.js';
import { ConnectionGone, PasswordsBusy } from '../../src/auth/password-pool.js';

/** A limiter allowing `perAddress` failures a minute per address, on a clock the checks move on. */
function limiterOf(perAddress = 2) {
  const clock = { at: 1_700_000_000_000, now: () => clock.at };
  return { clock, limiter: new LoginLimiter(clock, perAddress) };
}
const key = { address: '192.0.2.10', username: 'alice' };

test('a matching password is ok with the value the check gave', async () => {
  const { limiter } = limiterOf();
  assert.deepEqual(await attemptLogin(limiter, key, async () => ({ user: 'alice' })), { kind: 'ok', value: { user: 'alice' } });
});

test('refusals count: past the limit the next attempt is limited without running the check', async () => {
  const { clock, limiter } = limiterOf(2);
  const slowRefusal = async () => ((clock.at += 1000), null);
  assert.deepEqual(await attemptLogin(limiter, key, slowRefusal), { kind: 'refused' });
  assert.deepEqual(await attemptLogin(limiter, key, slowRefusal), { kind: 'refused' });
  let ran = false;
  const limited = await attemptLogin(limiter, key, async () => ((ran = true), 'x'));
  assert.equal(limited.kind, 'limited');
  assert.ok(limited.kind === 'limited' && limited.retryAfter >= 1);
  assert.equal(ran, false);
});

test('a busy password pool answers busy and a closed connection gone; neither counts as a failure', async () => {
  const { clock, limiter } = limiterOf(2);
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(
      await attemptLogin(limiter, key, async () => {
        throw new PasswordsBusy();
      }),
      { kind: 'busy', retryAfter: 1 },
    );
    assert.deepEqual(
      await attemptLogin(limiter, key, async () => {
        throw new ConnectionGone();
      }),
      { kind: 'gone' },
    );
  }
  assert.deepEqual(await attemptLogin(limiter, key, async () => ((clock.at += 1000), null)), { kind: 'refused' }, 'still let in');
});

test('any other failure of the check is thrown, and the attempt stops counting', async () => {
  const { limiter } = limiterOf(2);
  for (let i = 0; i < 6; i++) {
    await assert.rejects(
      attemptLogin(limiter, key, async () => {
        throw new Error('store gone');
      }),
      /store gone/,
    );
  }
  assert.equal((await attemptLogin(limiter, key, async () => 'in')).kind, 'ok', 'no attempt was left in flight');
});

test('the check runs first in line for a clean client, and not after that client failed for another name', async () => {
  const { clock, limiter } = limiterOf(5);
  const priorities: boolean[] = [];
  const refuse = async (priority: boolean) => (priorities.push(priority), (clock.at += 1000), null);
  await attemptLogin(limiter, key, refuse);
  await attemptLogin(limiter, { ...key, username: 'bob' }, refuse);
  assert.deepEqual(priorities, [true, false]);
});

test('a client that signed in keeps priority for that name after failures', async () => {
  const { clock, limiter } = limiterOf(5);
  const priorities: boolean[] = [];
  await attemptLogin(limiter, key, async () => 'in');
  await attemptLogin(limiter, { ...key, username: 'bob' }, async () => ((clock.at += 1000), null));
  await attemptLogin(limiter, key, async (priority) => (priorities.push(priority), 'in'));
  await attemptLogin(limiter, { ...key, username: 'carol' }, async (priority) => (priorities.push(priority), 'in'));
  assert.deepEqual(priorities, [true, false]);
});
