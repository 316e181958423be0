// The broker killed and started again under a server and a client while results flow through the client's socket: every
// result the client answered `ok` reaches the server's store once and is handled once, no check request goes out twice,
// and the server schedules again within 15 s of the broker's return.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { fleetClient, fleetServer } from '../helpers/fleet.js';
import { tcpCollector } from '../helpers/net.js';
import { getJson, eventually } from '../helpers/instance.js';
import { rabbitFor } from '../servers/rabbitmq.js';
import { redisFor } from '../servers/redis.js';
import { answers, assertAckedStoredOnce, assertMemoryReturned, assertNoRequestTwice, firstRequestAfter, flow, issuedOf, rssMb, type Sent } from './flow.js';

const INTERVAL_S = 3;

interface Broker {
  readonly settings: object;
  kill(): Promise<void>;
  start(): Promise<void>;
}

async function brokerRestarted(t: TestContext, transport: 'rabbitmq' | 'redis', broker: Broker): Promise<void> {
  const collector = await tcpCollector();
  t.after(() => collector.close());
  const server = await fleetServer(
    t,
    transport,
    {
      'conf.d/s.json': {
        ...broker.settings,
        handlers: { record: { type: 'tcp', socket: { host: '127.0.0.1', port: collector.port } } },
        checks: { tick: { command: 'true', interval: INTERVAL_S, subscribers: ['faults'], handle: false } },
      },
    },
    {},
    ['--log-level', 'debug'],
  );
  const client = await fleetClient(t, transport, {
    'conf.d/c.json': { ...broker.settings, client: { name: 'c1', address: '127.0.0.1', subscriptions: ['faults'] }, checkbridge: { keepalive_interval: 1 } },
  });
  await eventually(
    () => getJson(`${server.api}/clients/c1`),
    (r) => r.status === 200,
    15_000,
  );
  const load = flow([client.socket], transport, ['record']);
  await sleep(1500);
  const before = [rssMb(server.daemon.proc.pid!), rssMb(client.daemon.proc.pid!)];
  const faultAt = Date.now();
  await broker.kill();
  await sleep(2000);
  await broker.start();
  const faultEnd = Date.now();
  const request = await firstRequestAfter([server.daemon], 'tick', faultEnd);
  await sleep(2000);
  await load.stop();
  assert.ok(request !== null && request - faultEnd < 15_000, `scheduling did not resume within 15 s of the ${transport} restart`);
  // The client answers `ok` once a result is handed to the broker (as a legacy client does), and the broker keeps no
  // queue on disk: what it held when killed may be lost, and only that.
  const inBroker = (s: Sent) => s.at >= faultAt - 2000 && s.at <= faultAt + 100;
  const figures = await eventually(
    () => assertAckedStoredOnce(server.api, ['c1'], load.sent, collector, inBroker).catch((error: Error) => error),
    (r) => !(r instanceof Error),
    30_000,
  );
  if (figures instanceof Error) throw figures;
  assertNoRequestTwice(issuedOf([server.daemon], 'tick'), INTERVAL_S);
  assertMemoryReturned(t, `server (${transport})`, before[0]!, rssMb(server.daemon.proc.pid!));
  assertMemoryReturned(t, `client (${transport})`, before[1]!, rssMb(client.daemon.proc.pid!));
  const during = load.sent.filter((s) => s.at >= faultAt && s.at <= faultEnd);
  t.diagnostic(
    `${transport} killed and started again: away ${faultEnd - faultAt} ms; first check request ${request! - faultEnd} ms after it was back; ` +
      `answered during it ${JSON.stringify(answers(during))}; all answers ${JSON.stringify(answers(load.sent))}; ` +
      `client ok ${figures.acked}, lost in the killed broker ${figures.lost}, stored ${figures.stored}, handled once ${figures.handledOnce}`,
  );
}

test('RabbitMQ killed and started again under a server and a client: acknowledged results stored and handled once, scheduling resumes', async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  await brokerRestarted(t, 'rabbitmq', { settings: { rabbitmq: rabbit.url }, kill: () => rabbit.kill(), start: () => rabbit.start() });
});

test('Redis killed and started again under a server and a client: acknowledged results stored and handled once, scheduling resumes', async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  await brokerRestarted(t, 'redis', { settings: { redis: { host: '127.0.0.1', port: redis.port } }, kill: () => redis.kill(), start: () => redis.start() });
});
