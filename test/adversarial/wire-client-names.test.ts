// Client names arriving over RabbitMQ or Redis follow the name rules of every other door: refused
// with a log line, never stored, never counted toward the entity limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { rabbitFor } from '../servers/rabbitmq.js';
import { redisFor } from '../servers/redis.js';
import { fleetServer, type FleetServer } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';

const BAD_NAMES = ['n'.repeat(300), 'a/b', 'with space', 'nul\u0000name', '../up', 'tab\tname'];
const result = (client: string, check: string) => JSON.stringify({ client, check: { name: check, output: 'o', status: 1 } });
const keepalive = (name: string) =>
  JSON.stringify({ name, address: '127.0.0.1', subscriptions: [], version: '1.9.0', timestamp: Math.floor(Date.now() / 1000) });
// Two entities at most: had any bad name been counted, the good ones behind them would be refused.
const LIMIT = { checkbridge: { entity_limit: 2 } };

async function expectRefusedThenGood(server: FleetServer, push: (kind: 'results' | 'keepalives', body: string) => Promise<void>): Promise<void> {
  for (const name of BAD_NAMES) await push('results', result(name, 'from-bad'));
  for (const name of BAD_NAMES) await push('keepalives', keepalive(name));
  await push('results', result('good-result', 'after'));
  await push('keepalives', keepalive('good-keepalive'));
  await eventually(
    () => getJson(`${server.api}/results/good-result`),
    (r) => r.status === 200 && r.body.length === 1,
    15_000,
  );
  await eventually(
    () => getJson(`${server.api}/clients/good-keepalive`),
    (r) => r.status === 200,
    15_000,
  );
  const names = (await getJson(`${server.api}/clients`)).body.map((c: { name: string }) => c.name).sort();
  assert.deepEqual(names, ['good-keepalive', 'good-result']);
  const dropped = (kind: string) => server.daemon.logs.filter((l) => l.msg === `discarding invalid ${kind}`).map((l) => String(l.reason));
  await eventually(
    async () => dropped('result').length + dropped('keepalive').length,
    (n) => n >= 2 * BAD_NAMES.length,
  );
  assert.equal(dropped('result').length, BAD_NAMES.length, JSON.stringify(dropped('result')));
  assert.equal(dropped('keepalive').length, BAD_NAMES.length, JSON.stringify(dropped('keepalive')));
  for (const reason of [...dropped('result'), ...dropped('keepalive')])
    assert.match(reason, /client name (must be at most 255 characters|cannot contain spaces or special characters)/);
  assert.equal(server.daemon.logs.filter((l) => /entity limit/.test(String(l.msg))).length, 0, 'nothing reached the entity limit');
  assert.equal(server.daemon.proc.exitCode, null);
}

test('RabbitMQ: results and keepalives with bad client names are logged and dropped, never counted', { timeout: 120_000 }, async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  const server = await fleetServer(t, 'rabbitmq', { 'conf.d/s.json': { rabbitmq: rabbit.url, ...LIMIT } });
  const connection = await amqp.connect(rabbit.url);
  connection.on('error', () => undefined);
  // The broker may be gone by then (its own cleanup runs first): closing must not wait for it.
  t.after(() => Promise.race([connection.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000))]));
  const channel = await connection.createChannel();
  await expectRefusedThenGood(server, async (kind, body) => void channel.publish(kind, '', Buffer.from(body)));
});

test('Redis: results and keepalives with bad client names are logged and dropped, never counted', { timeout: 120_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const server = await fleetServer(t, 'redis', { 'conf.d/s.json': { redis: { host: '127.0.0.1', port: redis.port }, ...LIMIT } });
  const peer = new Redis({ port: redis.port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  peer.on('error', () => undefined);
  t.after(() => void peer.disconnect());
  await expectRefusedThenGood(server, async (kind, body) => void (await peer.rpush(`transport:0:list:${kind}`, body)));
});
