import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { listenFailure, listenerFrom, startHttpListener } from '../../src/cli/listeners.js';
import { CheckbridgeError } from '../../src/errors.js';
import { capturedLogger } from '../helpers/log-capture.js';

const DEFAULTS = { bind: '127.0.0.1', port: 4567 };

test('a flag beats the environment, which beats the settings, which beat the default', () => {
  const env = { CHECKBRIDGE_API_BIND: '10.0.0.2', CHECKBRIDGE_API_PORT: '5000' };
  const configured = { bind: '10.0.0.3', port: 6000 };
  assert.deepEqual(listenerFrom('api', { apiBind: '10.0.0.1', apiPort: '4000' }, configured, DEFAULTS, env), { bind: '10.0.0.1', port: 4000, which: 'api' });
  assert.deepEqual(listenerFrom('api', {}, configured, DEFAULTS, env), { bind: '10.0.0.2', port: 5000, which: 'api' });
  assert.deepEqual(listenerFrom('api', {}, configured, DEFAULTS, {}), { bind: '10.0.0.3', port: 6000, which: 'api' });
  assert.deepEqual(listenerFrom('api', {}, {}, DEFAULTS, {}), { bind: '127.0.0.1', port: 4567, which: 'api' });
});

test('each listener reads its own flags and variables', () => {
  const flags = { socketPort: '1', agentPort: '2', v2Port: '3', agentdPort: '4', v2Bind: '::' };
  const env = { CHECKBRIDGE_AGENTD_BIND: '0.0.0.0' };
  assert.equal(listenerFrom('socket', flags, {}, DEFAULTS, env).port, 1);
  assert.equal(listenerFrom('agent', flags, {}, DEFAULTS, env).port, 2);
  assert.deepEqual(listenerFrom('v2', flags, {}, DEFAULTS, env), { bind: '::', port: 3, which: 'v2' });
  assert.deepEqual(listenerFrom('agentd', flags, {}, DEFAULTS, env), { bind: '0.0.0.0', port: 4, which: 'agentd' });
});

test('a port that is not an integer from 0 to 65535 is a usage error naming the flag', () => {
  for (const text of ['http', '65536', '-1', '80.5']) {
    assert.throws(
      () => listenerFrom('v2', { v2Port: text }, {}, DEFAULTS, {}),
      (error: unknown) =>
        error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && error.message === `invalid usage: --v2-port: not a port: ${text}`,
    );
  }
  assert.throws(() => listenerFrom('api', {}, {}, DEFAULTS, { CHECKBRIDGE_API_PORT: 'x' }), /--api-port: not a port: x/);
  assert.equal(listenerFrom('api', { apiPort: '0' }, {}, DEFAULTS, {}).port, 0);
});

test('a failure to listen names where the address comes from; a busy port says so; other errors pass through', () => {
  const busy = listenFailure('v2', new CheckbridgeError('CB_LISTEN', 'v2 API 127.0.0.1:8080: EADDRINUSE'));
  assert.ok(busy instanceof CheckbridgeError);
  assert.equal(
    busy.message,
    'cannot listen: v2 API 127.0.0.1:8080: EADDRINUSE (the port is in use: choose another with --v2-port (env CHECKBRIDGE_V2_PORT; settings checkbridge.v2_api.port) or --v2-bind)',
  );
  const denied = listenFailure('socket', new CheckbridgeError('CB_LISTEN', 'client socket 0.0.0.0:80: EACCES')) as Error;
  assert.match(denied.message, /EACCES \(choose another with --socket-port \(env CHECKBRIDGE_SOCKET_PORT; settings client\.socket\.port\) or --socket-bind\)$/);
  const other = new Error('boom');
  assert.equal(listenFailure('api', other), other);
  const usage = new CheckbridgeError('CB_CLI_USAGE', 'x');
  assert.equal(listenFailure('api', usage), usage);
});

test('a listener that starts logs its address; one on a busy port fails naming the listener and the flag', async (t) => {
  const first = Fastify();
  const second = Fastify();
  t.after(() => Promise.all([first.close(), second.close()]));
  const { logger, lines } = capturedLogger();
  const address = await startHttpListener(first, 'agent API', { bind: '127.0.0.1', port: 0, which: 'agent' }, false, logger);
  assert.equal(address.address, '127.0.0.1');
  assert.ok(address.port > 0);
  assert.deepEqual(
    lines.map((l) => [l.msg, l.address, l.tls]),
    [['agent API listening', `127.0.0.1:${address.port}`, false]],
  );
  await assert.rejects(
    startHttpListener(second, 'agent API', { bind: '127.0.0.1', port: address.port, which: 'agent' }, false, logger),
    (error: unknown) =>
      error instanceof CheckbridgeError &&
      error.code === 'CB_LISTEN' &&
      error.message.startsWith(`cannot listen: agent API 127.0.0.1:${address.port}: EADDRINUSE (the port is in use: choose another with --agent-port`),
  );
});

test('a listener beyond loopback without TLS is warned about after it starts', async (t) => {
  const app = Fastify();
  t.after(() => app.close());
  const { logger, lines } = capturedLogger();
  await startHttpListener(app, 'legacy API', { bind: '0.0.0.0', port: 0, which: 'api' }, false, logger);
  assert.deepEqual(
    lines.map((l) => l.msg),
    ['legacy API listening', 'legacy API serves insecure requests: it listens beyond loopback without TLS'],
  );
});
