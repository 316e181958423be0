// The ids a checkbridge client gives its results on RabbitMQ are random: one seen on the broker predicts no other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { rabbitFor } from '../servers/rabbitmq.js';
import { fleetClient } from '../helpers/fleet.js';
import { tcpExchange } from '../helpers/net.js';
import { eventually } from '../helpers/instance.js';

const RESULTS = 20;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('a client’s result ids on RabbitMQ are random UUIDs, not a sequence', { timeout: 120_000 }, async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  const connection = await amqp.connect(rabbit.url);
  connection.on('error', () => undefined);
  // The broker may be gone by then (its own cleanup runs first): closing must not wait for it.
  t.after(() => Promise.race([connection.close().catch(() => undefined), sleep(1000)]));
  const channel = await connection.createChannel();
  await channel.assertExchange('results', 'direct', { durable: false, autoDelete: false, internal: false });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, 'results', '');
  const ids: string[] = [];
  await channel.consume(queue, (m) => m && ids.push(String(JSON.parse(m.content.toString()).result_id)), { noAck: true });

  const client = await fleetClient(t, 'rabbitmq', {
    'conf.d/c.json': { rabbitmq: rabbit.url, client: { name: 'ids', address: '127.0.0.1', subscriptions: [] } },
  });
  const results = Array.from({ length: RESULTS }, (_, i) => ({ name: `check-${i}`, output: 'o', status: 0 }));
  assert.equal(await tcpExchange(client.socket, JSON.stringify(results)), 'ok');
  await eventually(
    async () => ids.length,
    (n) => n >= RESULTS,
    15_000,
  );
  for (const id of ids) assert.match(id, UUID_V4);
  assert.equal(new Set(ids).size, ids.length, 'every id is new');
  // A sequence shares what comes before its counter; 20 random UUIDs share not even their first 8 hex digits.
  assert.equal(new Set(ids.map((id) => id.slice(0, 8))).size, ids.length, `ids share a prefix: ${ids.join(' ')}`);
});
