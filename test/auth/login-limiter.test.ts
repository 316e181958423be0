// The login limiter alone: refusals record nothing and cannot flush a name's tally, the owner's side of a name is not
// locked out by a spray against it, and an IPv6 client is counted per /64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoginLimiter, type LoginKey } from '../../src/auth/login-limiter.js';

type Reply = ReturnType<LoginLimiter['reserve']>;
const granted = (reply: Reply) => 'failed' in reply;
const fail = (limiter: LoginLimiter, key: LoginKey) => {
  const ticket = limiter.reserve(key);
  assert.ok('failed' in ticket, `${key.address} as ${key.username} was refused`);
  ticket.failed();
};
/** 5 addresses x 20 failures against `username`: every one of them, and the name, at its limit. */
const spray = (limiter: LoginLimiter, username: string, prefix = '10.0.0.') => {
  for (let a = 0; a < 5; a++) for (let i = 0; i < 20; i++) fail(limiter, { address: prefix + a, username });
};

test("login limiter: a limited address sending 10,001 names neither resets a name's failures nor lifts its in-flight cap", () => {
  const t = 0;
  const limiter = new LoginLimiter({ now: () => t });
  spray(limiter, 'admin');
  fail(limiter, { address: '10.0.0.5', username: 'someone' });
  for (let i = 0; i < 10_001; i++) assert.ok(!granted(limiter.reserve({ address: '10.0.0.0', username: `x${i}` })));
  assert.ok(!granted(limiter.reserve({ address: '10.0.0.5', username: 'admin' })), "admin's 100 failures still count for a guessing address");

  const small = new LoginLimiter({ now: () => t }, 20, 60_000, 100, 4, 10);
  const held = ['1', '2', '3', '4'].map((a) => small.reserve({ address: `10.1.0.${a}`, username: 'admin' }));
  assert.ok(held.every(granted));
  for (let i = 0; i < 20; i++) fail(small, { address: '10.1.0.9', username: `y${i % 5}` });
  for (let i = 0; i < 50; i++) small.reserve({ address: '10.1.0.9', username: `flush-${i}` });
  const more = ['5', '6', '7', '8'].map((a) => small.reserve({ address: `10.1.0.${a}`, username: 'admin' }));
  assert.equal(more.filter(granted).length, 0, 'still four checks at once for admin, not eight');
});

test("login limiter: a full table of live tallies takes no new name from a guessing address, but still the owner's", () => {
  let t = 0;
  const limiter = new LoginLimiter({ now: () => t }, 20, 60_000, 100, 4, 10);
  for (let i = 0; i < 10; i++) fail(limiter, { address: '10.2.0.1', username: `n${i}` });
  assert.ok(!granted(limiter.reserve({ address: '10.2.0.1', username: 'new-name' })), 'a new name waits while every tally is live');
  assert.ok(granted(limiter.reserve({ address: '10.2.0.2', username: 'new-name' })), 'a client with no failures is not held back');
  t += 61_000;
  assert.ok(granted(limiter.reserve({ address: '10.2.0.1', username: 'new-name' })), 'finished tallies make room once the window passed');
});

test('login limiter: 100 failures from 5 addresses do not lock the owner out: a clean client or one that signed in recently gets in', () => {
  let t = 0;
  const limiter = new LoginLimiter({ now: () => t });
  const owner = { address: '192.168.1.1', username: 'admin' };
  const first = limiter.reserve(owner);
  assert.ok('failed' in first);
  first.succeeded();
  spray(limiter, 'admin');
  for (const address of ['10.0.0.0', '10.0.0.4']) assert.ok(!granted(limiter.reserve({ address, username: 'admin' })));
  fail(limiter, { address: '10.0.0.7', username: 'other' });
  assert.ok(!granted(limiter.reserve({ address: '10.0.0.7', username: 'admin' })), "an address that guessed waits for the name's limit");
  const fresh = limiter.reserve({ address: '172.16.0.1', username: 'admin' });
  assert.ok('failed' in fresh && fresh.priority, "a client without failures is not refused by the name's limit");
  fresh.release();
  // The owner mistypes once: no longer a clean client, but one that signed in as admin recently.
  fail(limiter, owner);
  const again = limiter.reserve(owner);
  assert.ok('failed' in again && again.priority, "the owner's address gets in after a typo");
  // Four checks at once for admin: a clean client is slowed, the owner is not.
  const four = ['172.16.0.2', '172.16.0.3', '172.16.0.4'].map((address) => limiter.reserve({ address, username: 'admin' }));
  assert.ok(four.every(granted));
  assert.ok(!granted(limiter.reserve({ address: '172.16.0.5', username: 'admin' })), "the name's concurrency still bounds clean clients");
  t += 1000;
  assert.ok(granted(limiter.reserve({ address: '192.168.1.1', username: 'admin' })));
});

test('login limiter: an IPv6 client is counted per /64, and an IPv4-mapped address as its IPv4 address', () => {
  const limiter = new LoginLimiter({ now: () => 0 });
  for (let i = 1; i <= 20; i++) fail(limiter, { address: `2001:db8:1:2::${i.toString(16)}`, username: `u${i}` });
  assert.ok(!granted(limiter.reserve({ address: '2001:db8:1:2:ffff:ffff:ffff:ffff', username: 'u99' })), 'the same /64');
  assert.ok(!granted(limiter.reserve({ address: '2001:0db8:0001:0002:0:0:0:abcd', username: 'u99' })), 'the same /64, written long');
  assert.ok(granted(limiter.reserve({ address: '2001:db8:1:3::1', username: 'u99' })), 'the next /64 is another client');
  for (let i = 1; i <= 20; i++) fail(limiter, { address: '::ffff:10.9.0.1', username: `v${i}` });
  assert.ok(!granted(limiter.reserve({ address: '10.9.0.1', username: 'v99' })));
  assert.ok(!granted(limiter.reserve({ address: '::ffff:a09:1', username: 'v99' })));
});
