// checkbridge server and clients as separate processes over a real RabbitMQ, on the legacy wire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import amqp from 'amqplib';
import { rabbitFor } from '../servers/rabbitmq.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, postJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { setTimeout as sleep } from 'node:timers/promises';

const clientConf = (name: string) => ({
  client: {
    name,
    address: '127.0.0.1',
    subscriptions: ['linux', 'roundrobin:pool'],
    keepalive: { thresholds: { warning: 3, critical: 5 } },
    api_key: 'sensitive',
  },
  checkbridge: { keepalive_interval: 1 },
});

function serverConf(url: string, dir: string) {
  return {
    rabbitmq: url,
    checkbridge: { monitor_interval: 1 },
    checks: {
      fan: { command: 'echo fan-from-:::name:::; exit 1', subscribers: ['linux'], interval: 1, handlers: ['tx'] },
      // Requested through the API only, so that every request is counted.
      rr: { command: `echo :::name::: >> ${join(dir, 'rr.log')}; exit 0`, subscribers: ['roundrobin:pool'], interval: 60, publish: false },
    },
    handlers: { tx: { type: 'transport', pipe: { type: 'fanout', name: 'cb_events', options: { durable: false } } } },
  };
}

/** A queue of our own bound to `exchange`, collecting what arrives (exchange declared with the legacy flags). */
async function tap(
  url: string,
  exchange: string,
  type: 'direct' | 'fanout',
  flags: amqp.Options.AssertExchange = { durable: false, autoDelete: false, internal: false },
) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, type, flags);
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, '');
  const got: amqp.ConsumeMessage[] = [];
  await channel.consume(queue, (m) => m && got.push(m), { noAck: true });
  // The broker may be gone by then: closing must not wait for it.
  return { got, close: () => Promise.race([connection.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]) };
}

test(
  'a checkbridge server and two checkbridge clients over RabbitMQ: keepalives, fanout, roundrobin, events, keepalive critical, transport handlers',
  { timeout: 120_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const events = await tap(rabbit.url, 'cb_events', 'fanout', { durable: false, autoDelete: false, internal: false });
    t.after(() => events.close());
    const dir = makeTree({});
    t.after(async () => removeTree(dir));
    const rrLog = join(dir, 'rr.log');
    const server = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': serverConf(rabbit.url, dir) });
    // Clients take the broker from RABBITMQ_URL, the legacy environment override.
    const c1 = await fleetClient(t, 'rabbitmq', { 'conf.d/client.json': clientConf('c1') }, { RABBITMQ_URL: rabbit.url });
    const c2 = await fleetClient(t, 'rabbitmq', { 'conf.d/client.json': clientConf('c2') }, { RABBITMQ_URL: rabbit.url });

    // Keepalives create the clients, redacted, with the client:<name> subscription added.
    const clients = await eventually(
      () => getJson(`${server.api}/clients`),
      (r) => r.body.length === 2,
      15_000,
    );
    assert.deepEqual(clients.body.map((c: { name: string }) => c.name).sort(), ['c1', 'c2']);
    const c1Record = clients.body.find((c: { name: string }) => c.name === 'c1');
    assert.equal(c1Record.api_key, 'REDACTED');
    assert.deepEqual(c1Record.subscriptions, ['linux', 'roundrobin:pool', 'client:c1']);
    assert.equal(c1Record.version, '1.9.0');

    // The fanout check runs on both clients, and its results become events on the server.
    const fanEvents = await eventually(
      () => getJson(`${server.api}/events`),
      (r) => r.body.filter((e: { check: { name: string } }) => e.check.name === 'fan').length === 2,
      15_000,
    );
    const outputs = fanEvents.body
      .filter((e: { check: { name: string } }) => e.check.name === 'fan')
      .map((e: { check: { output: string } }) => e.check.output.trim());
    assert.deepEqual(outputs.sort(), ['fan-from-c1', 'fan-from-c2']);

    // The transport handler published the events to its fanout exchange.
    await eventually(
      async () => events.got.length,
      (n) => n >= 2,
      10_000,
    );
    const published = JSON.parse(events.got[0]!.content.toString());
    assert.equal(published.check.name, 'fan');
    assert.ok(['c1', 'c2'].includes(published.client.name));
    assert.equal(events.got[0]!.fields.routingKey, '');

    // Round robin: each request runs on exactly one client, taking turns (a second apart: a client drops a repeated `issued`).
    for (let i = 0; i < 4; i++) {
      assert.equal((await postJson(`${server.api}/request`, { check: 'rr' })).status, 202);
      await sleep(1100);
    }
    await eventually(
      async () => readLines(rrLog).length,
      (n) => n >= 4,
      10_000,
    );
    await sleep(1000);
    assert.deepEqual(readLines(rrLog).sort(), ['c1', 'c1', 'c2', 'c2']);

    // The client's socket and HTTP socket publish to `results` too.
    assert.equal(await tcpExchange(c1.socket, JSON.stringify({ name: 'via_socket', output: 'socket says', status: 1 })), 'ok');
    assert.equal((await postJson(`${c1.agent}/results`, { name: 'via_http', output: 'http says', status: 2 })).status, 202);
    for (const [check, output] of [
      ['via_socket', 'socket says'],
      ['via_http', 'http says'],
    ]) {
      const event = await eventually(
        () => getJson(`${server.api}/events/c1/${check}`),
        (r) => r.status === 200,
        10_000,
      );
      assert.equal(event.body.check.output, output);
    }

    // A stopped client goes critical on keepalive; the other stays OK.
    await c2.daemon.stop('SIGKILL');
    const critical = await eventually(
      () => getJson(`${server.api}/events/c2/keepalive`),
      (r) => r.status === 200 && r.body.check.status === 2,
      20_000,
    );
    assert.match(critical.body.check.output, /No keepalive sent from client for \d+ seconds \(>=5\)/);
    assert.equal((await getJson(`${server.api}/events/c1/keepalive`)).status, 404);

    // /info reports the transport as legacy does.
    const info = await getJson(`${server.api}/info`);
    assert.equal(info.body.transport.name, 'rabbitmq');
    assert.equal(info.body.transport.connected, true);
    assert.equal(info.body.transport.keepalives.consumers, 1);
    assert.equal(info.body.transport.results.consumers, 1);
    assert.equal(typeof info.body.transport.results.messages, 'number');
    assert.equal((await getJson(`${server.api}/health?consumers=1`)).status, 204);
    const unhealthy = await getJson(`${server.api}/health?consumers=2`);
    assert.equal(unhealthy.status, 412);
    assert.deepEqual(unhealthy.body, ['keepalive consumers (1) less than min_consumers (2)', 'result consumers (1) less than min_consumers (2)']);
    const agentInfo = await getJson(`${c1.agent}/info`);
    assert.equal(agentInfo.body.transport.connected, true);
    assert.equal(agentInfo.body.transport.results.consumers, 1);
  },
);

// Two checkbridge servers sharing one PostgreSQL store: test/e2e/fleet-servers.test.ts.

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
