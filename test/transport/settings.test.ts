// The legacy transport settings forms and the reconnect rhythm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rabbitEndpoints } from '../../src/transport/rabbitmq/settings.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { ReconnectRhythm, FailoverOrder } from '../../src/transport/reconnect.js';
import { clientQueueName } from '../../src/transport/wire-names.js';

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

test('redis: a URL ignores its /db; the hash db is in the key names; sentinels', () => {
  const url = redisOptions('redis://:secret@cache:6380/5');
  assert.deepEqual([url.options.host, url.options.port, url.options.password, url.db], ['cache', 6380, 'secret', 0]);
  const hash = redisOptions({ host: 'h', port: 7000, db: 2, password: 'p' });
  assert.deepEqual([hash.options.host, hash.options.port, hash.options.db, hash.db], ['h', 7000, 2, 2]);
  const sentinel = redisOptions({ sentinels: [{ host: 's1' }, { host: 's2', port: 26380 }], master: 'm' });
  assert.deepEqual(sentinel.options.sentinels, [
    { host: 's1', port: 26379 },
    { host: 's2', port: 26380 },
  ]);
  assert.equal(sentinel.options.name, 'm');
  assert.deepEqual(redisOptions({ sentinels: 'redis://s1:1,s2' }).options.sentinels, [
    { host: 's1', port: 1 },
    { host: 's2', port: 26379 },
  ]);
  assert.equal(redisOptions({ sentinels: [{ host: 's' }] }).options.name, 'mymaster');
  assert.throws(() => redisOptions('amqp://x'), /redis/);
});

test('reconnect waits grow by 2 s up to 20 s; failover entries are all used before any repeats', () => {
  const rhythm = new ReconnectRhythm();
  assert.deepEqual(
    Array.from({ length: 12 }, () => rhythm.next() / 1000),
    [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 20, 20],
  );
  rhythm.reset();
  assert.equal(rhythm.next(), 2000);
  const order = new FailoverOrder(['a', 'b', 'c']);
  assert.deepEqual([order.next(), order.next(), order.next()].sort(), ['a', 'b', 'c']);
});

test('the client queue name is <name>-1.9.0-<start epoch seconds>', () => {
  assert.equal(clientQueueName('web-01', 1_795_394_165_999), 'web-01-1.9.0-1795394165');
});
