// The broker killed and restarted under load: nothing acknowledged is lost, nothing is processed twice, everyone comes back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import amqp from 'amqplib';
import { setTimeout as sleep } from 'node:timers/promises';
import { rabbitFor } from '../servers/rabbitmq.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, postJson, eventually } from '../helpers/instance.js';

async function publisher(url: string) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  await channel.assertExchange('results', 'direct', { durable: false, autoDelete: false, internal: false });
  return {
    send: (name: string) =>
      channel.publish('results', '', Buffer.from(JSON.stringify({ client: 'loadgen', check: { name, output: name, status: 1 } })), {
        contentType: 'application/octet-stream',
        deliveryMode: 1,
        priority: 0,
      }),
    close: () => Promise.race([connection.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]),
  };
}

test(
  'broker killed and restarted under load: acknowledged results kept, none twice, clients reconnect on the legacy rhythm and every result they buffered lands once, even before a server is back',
  { timeout: 180_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const server = await fleetServer(
      t,
      'rabbitmq',
      {
        'conf.d/s.json': {
          rabbitmq: rabbit.url,
          checkbridge: { monitor_interval: 1 },
          checks: { ping: { command: 'true', subscribers: ['nowhere'], interval: 1 } },
        },
      },
      {},
      ['--log-level', 'trace'],
    );
    const client = await fleetClient(t, 'rabbitmq', {
      'conf.d/c.json': {
        rabbitmq: rabbit.url,
        client: { name: 'c1', address: '127.0.0.1', subscriptions: [] },
        checkbridge: { keepalive_interval: 1 },
        checks: { tick: { command: 'echo tick', standalone: true, interval: 1 } },
      },
    });
    await eventually(
      () => getJson(`${server.api}/clients/c1`),
      (r) => r.status === 200,
      10_000,
    );

    // Phase A: a backlog the server works through one acknowledgement at a time (prefetch 1) when the broker dies.
    const first = await publisher(rabbit.url);
    for (let i = 0; i < 3000; i++) first.send(`a-${i}`);
    const acked = () => server.daemon.logs.filter((l) => l.msg === 'result acknowledged' && l.client === 'loadgen').map((l) => String(l.check));
    await eventually(
      async () => acked().length,
      (n) => n >= 200,
      30_000,
    );
    const killedAt = Date.now();
    const clientMark = client.daemon.logs.length;
    const serverMark = server.daemon.logs.length;
    await rabbit.kill();
    await first.close();
    const ackedBeforeKill = new Set(acked());
    assert.ok(ackedBeforeKill.size >= 200);

    // Broker away: the server still answers, and says the transport is down.
    await sleep(3000);
    const info = await eventually(
      () => getJson(`${server.api}/info`),
      (r) => r.body?.transport?.connected === false,
      10_000,
    );
    assert.equal(info.status, 200);
    assert.equal(info.body.transport.connected, false);
    const health = await getJson(`${server.api}/health`);
    assert.equal(health.status, 412);
    assert.deepEqual(health.body, ['not connected to transport']);

    // Results the client takes in while the broker is away: buffered, each with its own name.
    const buffered = Array.from({ length: 20 }, (_, i) => `buffered-${i}`);
    for (const name of buffered) assert.equal((await postJson(`${client.agent}/results`, { name, output: name, status: 2 })).status, 202);
    // The server frozen until the client has flushed: nobody else declares `results` on the restarted broker first.
    server.daemon.proc.kill('SIGSTOP');
    await rabbit.start();
    const back = (daemon: typeof server.daemon, mark: number) => daemon.waitFor((l) => l.msg === 'reconnected to transport', 60_000, mark);
    await back(client.daemon, clientMark);
    const flushedEarly = await client.daemon.waitFor((l) => l.msg === 'published buffered results', 10_000, clientMark);
    assert.ok(Number(flushedEarly.published) >= buffered.length);
    server.daemon.proc.kill('SIGCONT');
    const serverBack = await back(server.daemon, serverMark);

    // As a legacy server pauses: nothing scheduled or monitored into the dead broker, then it all resumes.
    const away = server.daemon.logs.slice(serverMark, server.daemon.logs.indexOf(serverBack));
    assert.ok(away.some((l) => l.msg === 'transport is not connected: check requests and monitors paused until it is'));
    assert.deepEqual(
      away.filter((l) => l.msg === 'transport is not connected: check request not published'),
      [],
      'check requests published into the dead broker',
    );
    assert.deepEqual(
      away.filter((l) => l.msg === 'transport is not connected: buffering results until it is'),
      [],
      'monitor results made while the broker was away',
    );
    await server.daemon.waitFor((l) => l.msg === 'publishing check request' && l.check === 'ping', 10_000, server.daemon.logs.indexOf(serverBack));

    // Phase B, after the restart: every one of these arrives.
    const second = await publisher(rabbit.url);
    t.after(() => second.close());
    for (let i = 0; i < 300; i++) second.send(`b-${i}`);
    const results = await eventually(
      () => getJson(`${server.api}/results/loadgen`),
      (r) => r.status === 200 && r.body.filter((x: { check: { name: string } }) => x.check.name.startsWith('b-')).length === 300,
      60_000,
    );
    const stored = new Map<string, number[]>(results.body.map((r: { check: { name: string; history: number[] } }) => [r.check.name, r.check.history]));
    for (const name of ackedBeforeKill) assert.ok(stored.has(name), `acknowledged ${name} was lost`);
    for (const [name, history] of stored) assert.equal(history.length, 1, `${name} processed ${history.length} times`);
    // Every result the client buffered and flushed landed once, though no server had declared `results` yet.
    const fromClient = await eventually(
      () => getJson(`${server.api}/results/c1`),
      (r) => r.status === 200 && buffered.every((name) => r.body.some((x: { check: { name: string } }) => x.check.name === name)),
      20_000,
    );
    for (const name of buffered) {
      const found = fromClient.body.filter((x: { check: { name: string } }) => x.check.name === name);
      assert.equal(found.length, 1, `buffered ${name} lost`);
      assert.deepEqual(found[0].check.history, [2], `buffered ${name} processed more than once`);
    }

    // The legacy rhythm: waits of 2, 4, 6 … s between attempts, then a fresh keepalive.
    const waits = client.daemon.logs
      .slice(clientMark)
      .filter((l) => l.msg === 'reconnecting to transport')
      .map((l) => Number(l.in_seconds));
    assert.ok(waits.length >= 1);
    assert.deepEqual(
      waits,
      waits.map((_, i) => 2 * (i + 1)),
    );
    const reconnected = await client.daemon.waitFor((l) => l.msg === 'reconnected to transport', 1000, clientMark);
    const keepalive = await eventually(
      () => getJson(`${server.api}/clients/c1`),
      (r) => r.body.timestamp * 1000 >= Date.parse(String(reconnected.time)) - 1000,
      10_000,
    );
    assert.ok(keepalive.body.timestamp * 1000 >= killedAt);

    // Standalone checks kept running while the broker was away, and reach the server again after the outage.
    const tickExecuted = async () =>
      Number(
        ((await getJson(`${server.api}/results/c1`)).body as { check: { name: string; executed: number } }[]).find((x) => x.check.name === 'tick')?.check
          .executed ?? 0,
      );
    assert.ok((await eventually(tickExecuted, (t) => t * 1000 >= killedAt, 20_000)) * 1000 >= killedAt, 'a result executed after the kill reached the server');
  },
);
