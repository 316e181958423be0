// Copies of one result (a checkbridge client sends again what a broker may have lost) reaching two servers that share
// PostgreSQL and the `results` queue: each is stored and handled once, by whichever server took it first. Results
// without an id (a real legacy client's) are handled every time, as before.
import { test } from 'node:test';
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { rabbitFor } from '../servers/rabbitmq.js';
import { postgresFor } from '../servers/postgres.js';
import { fleetServer } from '../helpers/fleet.js';
import { tcpCollector } from '../helpers/net.js';
import { getJson, eventually } from '../helpers/instance.js';
import { handledNames } from './flow.js';

const WITH_ID = 20;
const COPIES = 3;

test('copies of a result with a result_id, spread over two servers on PostgreSQL: stored and handled once; results without one as before', async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  const pg = await postgresFor(t);
  if (!pg) return;
  const collector = await tcpCollector();
  t.after(() => collector.close());
  const conf = { rabbitmq: rabbit.url, handlers: { record: { type: 'tcp', socket: { host: '127.0.0.1', port: collector.port } } } };
  const store = ['--store-dsn', pg.url()];
  const a = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, {}, store);
  const b = await fleetServer(t, 'rabbitmq', { 'conf.d/server.json': conf }, {}, store);
  await eventually(
    () => getJson(`${b.api}/info`),
    (r) => r.body.transport?.results?.consumers === 2,
    15_000,
  );

  // Straight onto the wire, as a client would send them: the broker shares them out between the two consumers.
  const connection = await amqp.connect(rabbit.url);
  connection.on('error', () => undefined);
  // Closed before the broker stops, and never waited on longer than a second.
  const closed = () => Promise.race([connection.close().catch(() => undefined), sleep(1000)]);
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange('results', 'direct', { durable: false, autoDelete: false, internal: false });
  const publish = (body: object) =>
    channel.publish('results', '', Buffer.from(JSON.stringify(body)), { contentType: 'application/octet-stream', deliveryMode: 1 });
  const result = (name: string) => ({ client: 'wire-c', check: { name, output: name, status: 2, handlers: ['record'] } });
  // As a checkbridge client makes them: random UUIDs.
  const ids = Array.from({ length: WITH_ID }, () => randomUUID());
  for (let copy = 0; copy < COPIES; copy++) {
    for (let i = 0; i < WITH_ID; i++) publish({ ...result(`copied-${i}`), result_id: ids[i] });
    for (let i = 0; i < 2; i++) publish(result(`plain-${i}`));
  }
  await channel.waitForConfirms();
  await closed();

  const expected = WITH_ID + 2 * COPIES;
  const handled = await eventually(
    async () => handledNames(collector),
    (names) => names.length >= expected,
    30_000,
  );
  const results = (await getJson(`${a.api}/results/wire-c`)).body as { check: { name: string; history: unknown[] } }[];
  const history = new Map(results.map((r) => [r.check.name, r.check.history.length]));
  const count = (name: string) => handled.filter((n) => n === name).length;
  for (let i = 0; i < WITH_ID; i++) {
    assert.equal(history.get(`copied-${i}`), 1, `copied-${i} stored ${history.get(`copied-${i}`)} times`);
    assert.equal(count(`copied-${i}`), 1, `copied-${i} handled ${count(`copied-${i}`)} times`);
  }
  for (let i = 0; i < 2; i++) assert.equal(history.get(`plain-${i}`), COPIES, `plain-${i}: a result without an id is handled every time`);
  const dropped = (server: typeof a) =>
    server.daemon.logs.filter((l) => l.msg === 'dropped copies of results already handled').reduce((n, l) => n + Number(l.dropped), 0);
  const [byA, byB] = await eventually(
    async () => [dropped(a), dropped(b)],
    ([x, y]) => x! + y! >= WITH_ID * (COPIES - 1),
    10_000,
  );
  assert.equal(byA! + byB!, WITH_ID * (COPIES - 1), 'copies dropped');
  // Round robin between the consumers: copies reached both servers, so the id table was consulted across them.
  assert.ok(byA! > 0 && byB! > 0, `copies dropped by one server only: ${byA} and ${byB}`);
  t.diagnostic(`handled ${handled.length} (expected ${expected}); copies dropped by server a ${byA}, by server b ${byB}`);
});
