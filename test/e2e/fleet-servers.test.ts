// Two checkbridge servers on one PostgreSQL store behind one RabbitMQ, with legacy-wire checkbridge clients: the broker
// shares results out, the store makes them one state, the election makes scheduling happen once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { rabbitFor } from '../servers/rabbitmq.js';
import { postgresFor } from '../servers/postgres.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const clientConf = (name: string) => ({ client: { name, address: '127.0.0.1', subscriptions: ['linux'] }, checkbridge: { keepalive_interval: 1 } });

/** Check requests published to a subscription's fanout exchange (declared with the legacy flags). */
async function requests(url: string, exchange: string) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'fanout', { durable: false, autoDelete: false, internal: false });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, '');
  const got: { at: number; name: string; issued: number }[] = [];
  await channel.consume(
    queue,
    (m) => {
      if (!m) return;
      const body = JSON.parse(m.content.toString());
      got.push({ at: Date.now(), name: body.name, issued: body.issued });
    },
    { noAck: true },
  );
  return { got, close: () => Promise.race([connection.close().catch(() => undefined), sleep(1000)]) };
}

function lines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

test(
  'two checkbridge servers sharing one PostgreSQL store: results through both, one event per client/check, handlers once, scheduling by the elected one, takeover after kill -9',
  { timeout: 180_000 },
  async (t) => {
    const rabbit = await rabbitFor(t);
    if (!rabbit) return;
    const pg = await postgresFor(t);
    if (!pg) return;
    const dir = makeTree({});
    t.after(async () => removeTree(dir));
    const handled = join(dir, 'handled.log');
    // The handler appends one line per event it is given: which server ran it, and the result's identity (its request's
    // `issued`: under load a client may execute two requests within one second, so `executed` can repeat).
    const recorder = join(dir, 'record.js');
    writeFileSync(
      recorder,
      `let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{const e=JSON.parse(d);require('fs').appendFileSync(${JSON.stringify(handled)},[process.env.CB_TEST_SERVER,e.client.name,e.check.name,e.check.issued].join(' ')+'\\n')})`,
    );
    const conf = {
      rabbitmq: rabbit.url,
      checkbridge: { monitor_interval: 1 },
      checks: { fan: { command: 'echo fan-:::name:::; exit 1', subscribers: ['linux'], interval: 1, handlers: ['record'] } },
      handlers: { record: { type: 'pipe', command: `${process.execPath} ${recorder}` } },
    };
    const tap = await requests(rabbit.url, 'linux');
    t.after(() => tap.close());
    const store = ['--store-dsn', pg.url()];
    const s1 = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, { CB_TEST_SERVER: 's1' }, store);
    await s1.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
    const s2 = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, { CB_TEST_SERVER: 's2' }, store);
    await fleetClient(t, 'rabbitmq', { 'conf.d/client.json': clientConf('c1') }, { RABBITMQ_URL: rabbit.url });
    await fleetClient(t, 'rabbitmq', { 'conf.d/client.json': clientConf('c2') }, { RABBITMQ_URL: rabbit.url });

    // Keepalives consumed by either server make one client registry, read the same through both.
    for (const server of [s1, s2])
      await eventually(
        () => getJson(`${server.api}/clients`),
        (r) => r.body.length === 2,
        20_000,
      );
    // The broker shares results between the two servers' consumers.
    const info = await getJson(`${s2.api}/info`);
    assert.equal(info.body.transport.results.consumers, 2);
    await eventually(
      async () => lines(handled),
      (l) => l.some((x) => x.startsWith('s1 ')) && l.some((x) => x.startsWith('s2 ')),
      30_000,
    );
    await sleep(4000);

    // One event per client/check, the same through both servers.
    const events = async (server: { api: string }) =>
      (await getJson(`${server.api}/events`)).body.map((e: { client: { name: string }; check: { name: string } }) => `${e.client.name}/${e.check.name}`).sort();
    assert.deepEqual(await events(s1), ['c1/fan', 'c2/fan']);
    assert.deepEqual(await events(s2), ['c1/fan', 'c2/fan']);
    // Every result is handled once, by the server that took it: no (client, check, issued) twice.
    const keys = lines(handled).map((l) => l.split(' ').slice(1).join(' '));
    assert.equal(new Set(keys).size, keys.length, `a result handled twice: ${lines(handled).join(', ')}`);
    // Scheduling: one request per interval, from the elected server only — never the same `issued` twice.
    const before = tap.got.filter((r) => r.name === 'fan');
    assert.ok(before.length >= 4, `fan requested: ${JSON.stringify(before)}`);
    assert.equal(new Set(before.map((r) => r.issued)).size, before.length, `a request published twice: ${JSON.stringify(before)}`);
    assert.ok(!s2.daemon.logs.some((l) => l.msg === 'became the elected server'));

    // kill -9 the elected server: the other takes over scheduling within seconds, and the clients' results keep arriving.
    await s1.daemon.stop('SIGKILL');
    const killedAt = Date.now();
    await s2.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
    await eventually(
      async () => tap.got.filter((r) => r.at > killedAt + 1000).length,
      (n) => n >= 3,
      15_000,
    );
    const after = tap.got.filter((r) => r.name === 'fan' && r.at > killedAt);
    assert.equal(new Set(after.map((r) => r.issued)).size, after.length, `a request published twice after the takeover: ${JSON.stringify(after)}`);
    const handledBefore = lines(handled).filter((l) => l.startsWith('s2 ')).length;
    await eventually(
      async () => lines(handled).filter((l) => l.startsWith('s2 ')).length,
      (n) => n >= handledBefore + 2,
      15_000,
    );
    const history = (await getJson(`${s2.api}/results/c1/fan`)).body;
    assert.equal(history.check.status, 1);
    assert.deepEqual(await events(s2), ['c1/fan', 'c2/fan']);
  },
);
