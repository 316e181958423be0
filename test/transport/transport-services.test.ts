// The transport as the daemon's two services, over a real Redis: the broker's consumers read from start until stop,
// and the connections close at stop, a moment after the last publish over a broker and at once in-process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { BrokerConsumers, TransportConnections } from '../../src/transport/transport-services.js';
import { InProcessTransport } from '../../src/transport/index.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { redisFor } from '../servers/redis.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';

test('over a broker: consumers read from start until stop; the connections close a moment after stop is asked', { timeout: 60_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const { logger } = capturedLogger();
  const broker = new RedisTransport(redisOptions({ host: '127.0.0.1', port: redis.port }), logger);
  const client = new RedisTransport(redisOptions({ host: '127.0.0.1', port: redis.port }), logger);
  t.after(async () => {
    await broker.close();
    await client.close();
  });
  client.start();
  const bodies: string[] = [];
  broker.consume('results', 'results', (delivery) => {
    bodies.push(delivery.body.toString());
    delivery.ack();
  });
  const consumers = new BrokerConsumers(broker, 500);
  const connections = new TransportConnections(broker);
  assert.deepEqual([consumers.name, connections.name], ['broker consumers', 'transport']);
  assert.equal(broker.connected(), false, 'nothing before start');
  await consumers.start();
  assert.ok(await until(() => broker.connected() && client.connected(), 10_000), 'connected');
  assert.ok(client.send('direct', 'results', '{"n":1}'));
  assert.ok(await until(() => bodies.length === 1, 10_000), 'read while consuming');

  await consumers.stop();
  assert.ok(client.send('direct', 'results', '{"n":2}'));
  await sleep(500);
  assert.deepEqual(bodies, ['{"n":1}'], 'not read after stop: it waits for another server');
  assert.equal(broker.connected(), true, 'still connected: only the connections service closes');

  const started = Date.now();
  await connections.stop();
  assert.ok(Date.now() - started >= 190, `closed after ${Date.now() - started} ms`);
  assert.equal(broker.connected(), false);
});

test('in-process: no consumers to start or stop, and the bus closes at once', async () => {
  const bus = new InProcessTransport();
  const consumers = new BrokerConsumers(null, 500);
  await consumers.start();
  await consumers.stop();
  const started = Date.now();
  await new TransportConnections(bus).stop();
  assert.ok(Date.now() - started < 150, `${Date.now() - started} ms`);
});
