// A result id makes a copy only of the same client's same check: a client that publishes results under its own name
// with the ids another, signed client uses (or forges that client's results, refused by their signature) drops none of
// its real results. Ids are taken only over RabbitMQ, where checkbridge clients send them; over Redis none is.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { rabbitFor } from '../servers/rabbitmq.js';
import { redisFor } from '../servers/redis.js';
import { postgresFor } from '../servers/postgres.js';
import { fleetServer, type FleetServer } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';

const REAL = 5;
const SIGNATURE = 'victim-signature';
type Push = (kind: 'results' | 'keepalives', body: object) => Promise<void>;

const result = (client: string, check: string, status: number, output: string, extra: object = {}) => ({
  client,
  check: { name: check, output, status, handlers: [] },
  ...extra,
});

async function historyOf(server: FleetServer, client: string): Promise<Map<string, number[]>> {
  const answer = await getJson(`${server.api}/results/${client}`);
  const rows = (answer.status === 200 ? answer.body : []) as { check: { name: string; history: string[] } }[];
  return new Map(rows.map((row) => [row.check.name, row.check.history.map(Number)]));
}

/** Pushes `marker` last and waits until it is stored: everything pushed before it has been taken by then. */
async function settled(server: FleetServer, push: Push, marker: string): Promise<void> {
  await push('results', result('marker', marker, 0, marker));
  await eventually(
    () => historyOf(server, 'marker'),
    (history) => history.has(marker),
    15_000,
  );
}

const copiesDropped = (server: FleetServer) =>
  server.daemon.logs.filter((l) => l.msg === 'dropped copies of results already handled').reduce((n, l) => n + Number(l.dropped), 0);

/**
 * The attack: the attacker's results carry the victim's ids under the attacker's own name, and a forged result under
 * the victim's name (wrong signature) carries each id just before the victim's own. Every real result is handled.
 */
async function attack(server: FleetServer, push: Push, ids: readonly string[]): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  await push('keepalives', { name: 'victim', address: '127.0.0.1', subscriptions: [], timestamp, signature: SIGNATURE });
  await eventually(
    () => getJson(`${server.api}/clients/victim`),
    (r) => r.status === 200,
    15_000,
  );
  for (const id of ids) await push('results', result('attacker', 'disk', 0, 'claimed', { result_id: id }));
  await settled(server, push, 'after-claims');
  assert.equal((await historyOf(server, 'attacker')).get('disk')?.length, ids.length, "the attacker's own results are handled");
  for (const [i, id] of ids.entries()) {
    await push('results', result('victim', 'disk', 0, 'forged', { signature: 'forged', result_id: id }));
    await push('results', result('victim', 'disk', 2, `critical ${i}`, { signature: SIGNATURE, result_id: id }));
  }
  await settled(server, push, 'after-real');
  assert.deepEqual(
    (await historyOf(server, 'victim')).get('disk'),
    new Array<number>(ids.length).fill(2),
    "every real critical result of the victim's is handled",
  );
  const event = await getJson(`${server.api}/events/victim/disk`);
  assert.equal(event.status, 200);
  assert.equal(event.body.check.output, `critical ${ids.length - 1}`);
  assert.equal(copiesDropped(server), 0, 'nothing was dropped as a copy');
}

/** Over RabbitMQ, on `store`: the attack fails, and a real copy (same client, same check, same id) is still dropped. */
async function overRabbit(t: TestContext, store: string[]): Promise<void> {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  const server = await fleetServer(t, 'rabbitmq', { 'conf.d/s.json': { rabbitmq: rabbit.url } }, {}, store);
  const connection = await amqp.connect(rabbit.url);
  connection.on('error', () => undefined);
  // The broker may be gone by then (its own cleanup runs first): closing must not wait for it.
  t.after(() => Promise.race([connection.close().catch(() => undefined), sleep(1000)]));
  const channel = await connection.createChannel();
  const push: Push = async (kind, body) => void channel.publish(kind, '', Buffer.from(JSON.stringify(body)));
  const ids = Array.from({ length: REAL }, () => randomUUID());
  await attack(server, push, ids);

  // The victim's client sends its first result again (a re-send after a broker outage): a copy, dropped.
  await push('results', result('victim', 'disk', 0, 'copy', { signature: SIGNATURE, result_id: ids[0] }));
  // The same id on another of its checks is no copy.
  await push('results', result('victim', 'memory', 1, 'other check', { signature: SIGNATURE, result_id: ids[0] }));
  // An id not of a checkbridge client's shape is not taken: the same result twice is handled twice.
  for (let i = 0; i < 2; i++) await push('results', result('victim', 'swap', 1, 'not an id', { signature: SIGNATURE, result_id: 'victimInst-1' }));
  await settled(server, push, 'after-copy');
  const history = await historyOf(server, 'victim');
  assert.equal(history.get('disk')?.length, REAL, 'the copy was not stored');
  assert.deepEqual(history.get('memory'), [1], 'the same id on another check is handled');
  assert.deepEqual(history.get('swap'), [1, 1], 'an id of another shape is not taken');
  assert.ok(server.daemon.logs.some((l) => String(l.msg).startsWith('result_id ignored') && l.client === 'victim'));
  await eventually(
    async () => copiesDropped(server),
    (n) => n >= 1,
    10_000,
  );
  assert.equal(copiesDropped(server), 1);
}

test('RabbitMQ, SQLite: ids claimed under another client name drop none of a signed client’s results; a real copy is dropped', { timeout: 120_000 }, (t) =>
  overRabbit(t, []),
);

test(
  'RabbitMQ, PostgreSQL: ids claimed under another client name drop none of a signed client’s results; a real copy is dropped',
  { timeout: 120_000 },
  async (t) => {
    const pg = await postgresFor(t);
    if (!pg) return;
    await overRabbit(t, ['--store-dsn', pg.url()]);
  },
);

test('Redis: ids claimed under another client name drop none of a signed client’s results; ids are not taken at all', { timeout: 120_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const server = await fleetServer(t, 'redis', { 'conf.d/s.json': { redis: { host: '127.0.0.1', port: redis.port } } });
  const peer = new Redis({ port: redis.port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  peer.on('error', () => undefined);
  t.after(() => void peer.disconnect());
  const push: Push = async (kind, body) => void (await peer.rpush(`transport:0:list:${kind}`, JSON.stringify(body)));
  // The shape of the ids checkbridge clients sent before: one seen predicts the rest.
  const ids = Array.from({ length: REAL }, (_, i) => `victimInst-${i + 1}`);
  await attack(server, push, ids);

  // A checkbridge client sends no id over Redis: one found there is not taken, and the same result again is handled.
  await push('results', result('victim', 'disk', 1, 'again', { signature: SIGNATURE, result_id: ids[0] }));
  await settled(server, push, 'after-again');
  assert.equal((await historyOf(server, 'victim')).get('disk')?.length, REAL + 1);
  assert.equal(copiesDropped(server), 0);
  const ignored = server.daemon.logs.filter((l) => String(l.msg).startsWith('result_id ignored'));
  assert.match(String(ignored[0]?.msg), /checkbridge clients send none over redis/);
});
