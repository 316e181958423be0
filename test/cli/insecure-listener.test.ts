import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopback, warnIfInsecure } from '../../src/cli/insecure-listener.js';
import { capturedLogger } from '../helpers/log-capture.js';

test('loopback is 127.0.0.0/8, ::1 and IPv4 loopback mapped into IPv6; nothing else', () => {
  for (const address of ['127.0.0.1', '127.255.3.4', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopback(address), true, address);
  for (const address of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'localhost', '::2']) assert.equal(isLoopback(address), false, address);
});

test('a listener beyond loopback without TLS warns once, naming the listener and its address', () => {
  const { logger, lines } = capturedLogger();
  warnIfInsecure(logger, 'v2 API', { address: '0.0.0.0', port: 8080 }, false);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.level, 40);
  assert.equal(lines[0]!.listener, 'v2 API');
  assert.equal(lines[0]!.address, '0.0.0.0:8080');
  assert.equal(lines[0]!.msg, 'v2 API serves insecure requests: it listens beyond loopback without TLS');
});

test('TLS or a loopback address is quiet', () => {
  const { logger, lines } = capturedLogger();
  warnIfInsecure(logger, 'legacy API', { address: '0.0.0.0', port: 4567 }, true);
  warnIfInsecure(logger, 'legacy API', { address: '127.0.0.1', port: 4567 }, false);
  warnIfInsecure(logger, 'legacy API', { address: '::1', port: 4567 }, false);
  assert.deepEqual(lines, []);
});
