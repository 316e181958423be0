// Two servers sharing one PostgreSQL store: v2 CheckConfigs are scheduled by the elected one only, each request
// published once, and by the other after the elected one is killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { rabbitFor } from '../servers/rabbitmq.js';
import { postgresFor } from '../servers/postgres.js';
import { fleetServer } from '../helpers/fleet.js';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

/** Check requests published to a subscription's fanout exchange (declared with the legacy flags). */
async function tapRequests(url: string, exchange: string) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'fanout', { durable: false, autoDelete: false, internal: false });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, '');
  const got: { at: number; name: string; issued: number; command: string }[] = [];
  await channel.consume(
    queue,
    (m) => {
      if (!m) return;
      const body = JSON.parse(m.content.toString());
      got.push({ at: Date.now(), name: body.name, issued: body.issued, command: body.command });
    },
    { noAck: true },
  );
  return { got, close: () => Promise.race([connection.close().catch(() => undefined), sleep(1000)]) };
}

test(
  'two servers sharing PostgreSQL: a v2 check created through the one not elected is published once per interval by the elected one, then by the other after kill -9',
  { timeout: 180_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const pg = await postgresFor(t);
    if (!pg) return;
    const tap = await tapRequests(rabbit.url, 'shared');
    t.after(() => tap.close());
    const conf = { rabbitmq: rabbit.url };
    const store = ['--store-dsn', pg.url()];
    const s1 = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, {}, store);
    await s1.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
    const s2 = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, {}, store);
    const v2 = `http://${(await s2.daemon.waitFor((l) => l.msg === 'v2 API listening')).address}`;
    const auth = `Bearer ${await adminToken(v2)}`;
    const check = { metadata: { name: 'everyone' }, command: 'echo once', interval: 1, publish: true, subscriptions: ['shared'] };
    assert.equal((await call(`${v2}/api/core/v2/namespaces/default/checks/everyone`, 'PUT', auth, check)).status, 201);

    await eventually(
      async () => tap.got.length,
      (n) => n >= 5,
      20_000,
    );
    const before = tap.got.filter((r) => r.name === 'everyone');
    assert.equal(before[0]!.command, 'echo once');
    assert.equal(new Set(before.map((r) => r.issued)).size, before.length, `a request published twice: ${JSON.stringify(before)}`);

    await s1.daemon.stop('SIGKILL');
    const killedAt = Date.now();
    await s2.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
    await eventually(
      async () => tap.got.filter((r) => r.at > killedAt).length,
      (n) => n >= 3,
      20_000,
    );
    const all = tap.got.filter((r) => r.name === 'everyone');
    assert.ok(all.filter((r) => r.at > killedAt).length >= 3);
    assert.equal(new Set(all.map((r) => r.issued)).size, all.length, `a request published twice across the takeover: ${JSON.stringify(all)}`);
  },
);
