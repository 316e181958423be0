// The legacy RabbitMQ transport settings: URL, hash and failover-array forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rabbitEndpoints } from '../../../src/transport/rabbitmq/settings.js';

test('rabbitmq URLs: vhost from the one path segment, %2F for /, a trailing / is vhost "", no path is /', () => {
  const [plain] = rabbitEndpoints('amqp://u%40x:p%3Aw@broker:5673');
  assert.deepEqual(
    [plain!.connect.hostname, plain!.connect.port, plain!.connect.username, plain!.connect.password, plain!.connect.vhost],
    ['broker', 5673, 'u@x', 'p:w', '/'],
  );
  assert.equal(rabbitEndpoints('amqp://broker/')[0]!.connect.vhost, '');
  assert.equal(rabbitEndpoints('amqp://broker/%2F')[0]!.connect.vhost, '/');
  assert.equal(rabbitEndpoints('amqp://broker/prod')[0]!.connect.vhost, 'prod');
  assert.throws(() => rabbitEndpoints('amqp://broker/a/b'), /one segment/);
  assert.throws(() => rabbitEndpoints('http://broker'), /amqp or amqps/);
  // A URL cannot carry prefetch: 1. amqps switches the default port and verifies the broker (unlike legacy: broker-tls.test.ts).
  const [tls] = rabbitEndpoints('amqps://broker');
  assert.deepEqual([tls!.connect.protocol, tls!.connect.port, tls!.prefetch, tls!.socket.rejectUnauthorized], ['amqps', 5671, 1, true]);
});

test('rabbitmq hash, defaults and failover arrays', () => {
  const [defaults] = rabbitEndpoints(undefined);
  assert.deepEqual(
    [
      defaults!.connect.hostname,
      defaults!.connect.port,
      defaults!.connect.vhost,
      defaults!.connect.username,
      defaults!.connect.password,
      defaults!.connect.heartbeat,
      defaults!.prefetch,
    ],
    ['127.0.0.1', 5672, '/', 'guest', 'guest', undefined, 1],
  );
  // 0 means "take the broker's" to legacy, "disable" to amqplib: it is left out.
  assert.equal(rabbitEndpoints({ heartbeat: 0 })[0]!.connect.heartbeat, undefined);
  const [hash] = rabbitEndpoints({ host: 'h', port: 1234, vhost: '/sensu', username: 'a', pass: 'b', heartbeat: 30, prefetch: 50, ssl: true });
  // ssl does not switch the port in Hash form.
  assert.deepEqual(
    [hash!.connect.port, hash!.connect.username, hash!.connect.password, hash!.connect.heartbeat, hash!.prefetch, hash!.connect.protocol],
    [1234, 'a', 'b', 30, 50, 'amqps'],
  );
  assert.equal(rabbitEndpoints([['amqp://a'], { host: 'b' }, 'amqp://c']).length, 3);
  assert.throws(() => rabbitEndpoints({ prefetch: 0 }), /prefetch/);
  assert.throws(() => rabbitEndpoints([42]), /hash or an amqp/);
});
