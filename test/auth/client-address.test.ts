// The client a login attempt counts against: an IPv4 address, or an IPv6 /64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey } from '../../src/auth/client-address.js';

test('an IPv4 address is itself, also when it arrives IPv4-mapped, in either notation', () => {
  assert.equal(clientKey('192.0.2.7'), '192.0.2.7');
  assert.equal(clientKey('::ffff:192.0.2.7'), '192.0.2.7');
  assert.equal(clientKey('::FFFF:192.0.2.7'), '192.0.2.7');
  assert.equal(clientKey('::ffff:c000:207'), '192.0.2.7');
  assert.equal(clientKey('0:0:0:0:0:ffff:7f00:1'), '127.0.0.1');
});

test('every address of one IPv6 /64 is one client, however it is written', () => {
  const key = '2001:db8:1:2::/64';
  for (const address of [
    '2001:db8:1:2::1',
    '2001:db8:1:2:ffff:ffff:ffff:ffff',
    '2001:0db8:0001:0002:0:0:0:9',
    '2001:db8:1:2::5%eth0',
    '2001:db8:1:2::10.0.0.1',
  ])
    assert.equal(clientKey(address), key, address);
  assert.equal(clientKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey('fe80::1'), 'fe80:0:0:0::/64');
});

test('anything else is kept as it is (a Unix socket, a name)', () => {
  assert.equal(clientKey(''), '');
  assert.equal(clientKey('localhost'), 'localhost');
  assert.equal(clientKey('::ffff:999.1.1.1'), '::ffff:999.1.1.1');
});
