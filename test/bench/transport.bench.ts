// Results/s from a publisher into `results`, through RabbitMQ and through Redis, to committed events — beside the
// broker's own publish→consume rate for the same messages, measured in the same run.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { StateStore } from '../../src/store/index.js';
import { Intake } from '../../src/intake/intake.js';
import { legacyToV2Writer } from '../../src/intake/legacy-to-v2.js';
import { consumeFleet } from '../../src/fleet/fleet-consumer.js';
import { RabbitTransport } from '../../src/transport/rabbitmq/transport.js';
import { rabbitEndpoints } from '../../src/transport/rabbitmq/settings.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import type { WireTransport } from '../../src/transport/index.js';
import { systemClock } from '../../src/schedule/clock.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { rabbitMissing, startRabbit } from '../servers/rabbitmq.js';
import { redisMissing, startRedis } from '../servers/redis.js';

const COUNT = Number(process.env.CHECKBRIDGE_BENCH_TRANSPORT_COUNT ?? 50_000);
// 500 clients × 100 checks, a third of them OK: every result is a stored result, most an event.
const bodies = Array.from({ length: COUNT }, (_, i) =>
  JSON.stringify({
    client: `c${i % 500}`,
    check: { name: `check_${Math.floor(i / 500) % 100}`, output: `output ${i}`, status: i % 3, executed: 1_800_000_000 + i, issued: 1_800_000_000 + i },
  }),
);
const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));

/** The server's path: transport → validation → intake (legacy and v2 event in one transaction) → ack. */
async function checkbridgeRate(transport: WireTransport, publish: () => Promise<() => Promise<void>>): Promise<number> {
  const dir = makeTree({});
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, 'bench.db'));
  const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(store, () => settings, systemClock, logger);
  intake.withinTransaction(legacyToV2Writer(store, () => 'default', 'default'));
  let committed = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  intake.onEvent(() => {
    if (++committed === COUNT) done();
  });
  consumeFleet({ transport, store, settings: () => settings, intake, logger, clock: systemClock });
  const connected = new Promise<void>((resolve) => transport.onConnected(resolve));
  transport.start();
  await connected;
  try {
    const start = performance.now();
    const closePublisher = await publish();
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`stalled at ${committed} of ${COUNT} committed`)), 120_000)));
    await Promise.race([all, stalled]).finally(() => clearTimeout(timer));
    const result = rate(COUNT, performance.now() - start);
    await closePublisher();
    return result;
  } finally {
    await transport.close();
    store.close();
    removeTree(dir);
  }
}

async function rabbitBaseline(url: string, prefetch: number): Promise<number> {
  const [producer, consumer] = [await amqp.connect(url), await amqp.connect(url)];
  const out = await producer.createChannel();
  const inbound = await consumer.createChannel();
  await inbound.prefetch(prefetch, false);
  await inbound.assertExchange('bench_raw', 'direct', { durable: false, autoDelete: false, internal: false });
  await inbound.assertQueue('bench_raw', { durable: false, autoDelete: true, exclusive: false });
  await inbound.bindQueue('bench_raw', 'bench_raw', '');
  let consumed = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  // The same work per message as the server's minimum: parse the body, acknowledge it.
  await inbound.consume('bench_raw', (m) => {
    if (!m) return;
    JSON.parse(m.content.toString('utf8'));
    inbound.ack(m);
    if (++consumed === COUNT) done();
  });
  const start = performance.now();
  for (const body of bodies) out.publish('bench_raw', '', Buffer.from(body), { contentType: 'application/octet-stream', deliveryMode: 1, priority: 0 });
  await all;
  const result = rate(COUNT, performance.now() - start);
  await producer.close();
  await consumer.close();
  return result;
}

/** Publishes every body; the connection stays open (so nothing buffered is lost) until the returned close. */
async function rabbitPublish(url: string): Promise<() => Promise<void>> {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  for (const body of bodies) channel.publish('results', '', Buffer.from(body), { contentType: 'application/octet-stream', deliveryMode: 1, priority: 0 });
  return () => connection.close();
}

async function redisPush(port: number, key: string): Promise<() => Promise<void>> {
  const client = new Redis({ port, host: '127.0.0.1' });
  for (let i = 0; i < bodies.length; i += 1000) await client.rpush(key, ...bodies.slice(i, i + 1000));
  return async () => client.disconnect();
}

async function redisBaseline(port: number): Promise<number> {
  const consumer = new Redis({ port, host: '127.0.0.1' });
  const key = 'bench_raw';
  let consumed = 0;
  // The same reading pattern as the transport: BLPOP, then up to 256 more without blocking.
  const drain = (async () => {
    while (consumed < COUNT) {
      const first = await consumer.blpopBuffer(key, 0);
      const more = ((await consumer.lpopBuffer(key, 256)) as unknown as Buffer[] | null) ?? [];
      for (const body of [first![1], ...more]) {
        JSON.parse(body.toString('utf8'));
        consumed++;
      }
    }
  })();
  const start = performance.now();
  const close = await redisPush(port, key);
  await drain;
  await close();
  const result = rate(COUNT, performance.now() - start);
  consumer.disconnect();
  return result;
}

/** The same results submitted straight to intake, no broker: the ceiling the transport path works under. */
async function intakeOnlyRate(): Promise<number> {
  const dir = makeTree({});
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, 'bench.db'));
  const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(store, () => settings, systemClock, logger);
  intake.withinTransaction(legacyToV2Writer(store, () => 'default', 'default'));
  try {
    const start = performance.now();
    // In groups of 256, as the transports deliver them at most.
    for (let i = 0; i < COUNT; i += 256) await Promise.all(bodies.slice(i, i + 256).map((body) => intake.submit(JSON.parse(body))));
    return rate(COUNT, performance.now() - start);
  } finally {
    store.close();
    removeTree(dir);
  }
}

export async function benchTransport(report: (figure: object) => void): Promise<void> {
  const logger = createLogger('silent');
  report({ bench: 'transport.intake_only', results: COUNT, results_per_s: await intakeOnlyRate() });
  // CHECKBRIDGE_BENCH_TRANSPORT_ONLY=rabbitmq|redis runs one broker's figures.
  const only = process.env.CHECKBRIDGE_BENCH_TRANSPORT_ONLY;
  const missingRabbit = rabbitMissing();
  if (only === 'redis') void 0;
  else if (missingRabbit) report({ bench: 'transport.rabbitmq', skipped: missingRabbit });
  else {
    const rabbit = await startRabbit();
    try {
      for (const prefetch of [1, 256]) {
        const broker = await rabbitBaseline(rabbit.url, prefetch);
        const endpoints = rabbitEndpoints({ host: '127.0.0.1', port: rabbit.port, prefetch });
        const ours = await checkbridgeRate(new RabbitTransport(endpoints, 'bench-queue', logger), () => rabbitPublish(rabbit.url));
        report({
          bench: 'transport.rabbitmq.results_to_events',
          prefetch,
          results: COUNT,
          results_per_s: ours,
          broker_publish_consume_per_s: broker,
          ratio_to_broker: +(ours / broker).toFixed(2),
        });
      }
    } finally {
      await rabbit.stop();
    }
  }
  const missingRedis = redisMissing();
  if (only === 'rabbitmq') return;
  if (missingRedis) report({ bench: 'transport.redis', skipped: missingRedis });
  else {
    const redis = await startRedis();
    try {
      const broker = await redisBaseline(redis.port);
      const ours = await checkbridgeRate(new RedisTransport(redisOptions({ host: '127.0.0.1', port: redis.port }), logger), () =>
        redisPush(redis.port, 'transport:0:list:results'),
      );
      report({
        bench: 'transport.redis.results_to_events',
        results: COUNT,
        results_per_s: ours,
        broker_publish_consume_per_s: broker,
        ratio_to_broker: +(ours / broker).toFixed(2),
      });
    } finally {
      await redis.stop();
    }
  }
}
