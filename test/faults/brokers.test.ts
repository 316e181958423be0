// The broker killed and started again under a server and a client while results flow through the client's socket: every
// result the client answered `ok` reaches the server's store once and is handled once, no check request goes out twice,
// and the server schedules again within 15 s of the broker's return. RabbitMQ loses what its queues held when killed:
// the client sends those again (unconfirmed or confirmed just before), and the server drops the copies it had handled.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { fleetClient, fleetServer } from '../helpers/fleet.js';
import { tcpCollector } from '../helpers/net.js';
import { getJson, eventually } from '../helpers/instance.js';
import { rabbitFor } from '../servers/rabbitmq.js';
import { redisFor } from '../servers/redis.js';
import type { Daemon } from '../helpers/daemon.js';
import { answers, assertAckedStoredOnce, assertMemoryReturned, assertNoRequestTwice, firstRequestAfter, flow, issuedOf, rssMb, type Sent } from './flow.js';

const INTERVAL_S = 3;

interface Broker {
  readonly settings: object;
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Senders at full speed around the kill (a backlog in the broker to lose), then one at a legacy client's pace. */
  readonly burst: number;
  /** Results acknowledged that the broker may lose (none when the client sends again what it may have lost). */
  readonly mayLose: (s: Sent, faultAt: number) => boolean;
}

const sum = (lines: Record<string, unknown>[], key: string) => lines.reduce((total, l) => total + Number(l[key] ?? 0), 0);

/** What the client sent again and the server dropped as copies; the confirmed ones re-sent that were not copies, by age. */
function resendFigures(client: Daemon, server: Daemon) {
  const resends = client.logs.filter((l) => l.msg === 're-sending results the broker may have lost with the connection');
  const copies = server.logs.filter((l) => l.msg === 'dropped copies of results already handled');
  const dropped = new Set(server.logs.filter((l) => l.msg === 'copies dropped').flatMap((l) => l.ids as string[]));
  const rescued = client.logs.filter((l) => l.msg === 're-sending result' && !dropped.has(String(l.result_id)));
  const ages = rescued.map((l) => l.confirmed_ms_before).filter((age): age is number => typeof age === 'number');
  return {
    resent: sum(resends, 'unconfirmed') + sum(resends, 'confirmed'),
    resentConfirmed: sum(resends, 'confirmed'),
    copiesDropped: sum(copies, 'dropped'),
    rescued: rescued.length,
    rescuedConfirmed: ages.length,
    oldestRescuedMs: ages.length > 0 ? Math.max(...ages) : null,
  };
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
  const client = await fleetClient(
    t,
    transport,
    {
      'conf.d/c.json': {
        ...broker.settings,
        client: { name: 'c1', address: '127.0.0.1', subscriptions: ['faults'] },
        checkbridge: { keepalive_interval: 1 },
      },
    },
    {},
    ['--log-level', 'debug'],
  );
  await eventually(
    () => getJson(`${server.api}/clients/c1`),
    (r) => r.status === 200,
    15_000,
  );
  const load = flow([client.socket], transport, ['record']);
  const burst = flow(new Array<number>(broker.burst).fill(client.socket), `${transport}-burst`, ['record'], { pauseMs: 0 });
  await sleep(1500);
  const before = [rssMb(server.daemon.proc.pid!), rssMb(client.daemon.proc.pid!)];
  const faultAt = Date.now();
  await broker.kill();
  await burst.stop();
  await sleep(2000);
  await broker.start();
  const faultEnd = Date.now();
  const request = await firstRequestAfter([server.daemon], 'tick', faultEnd);
  await sleep(2000);
  await load.stop();
  const sent = [...load.sent, ...burst.sent];
  assert.ok(request !== null && request - faultEnd < 15_000, `scheduling did not resume within 15 s of the ${transport} restart`);
  const figures = await eventually(
    () => assertAckedStoredOnce(server.api, ['c1'], sent, collector, (s) => broker.mayLose(s, faultAt)).catch((error: Error) => error),
    (r) => !(r instanceof Error),
    30_000,
  );
  if (figures instanceof Error) throw figures;
  assertNoRequestTwice(issuedOf([server.daemon], 'tick'), INTERVAL_S);
  assertMemoryReturned(t, `server (${transport})`, before[0]!, rssMb(server.daemon.proc.pid!));
  assertMemoryReturned(t, `client (${transport})`, before[1]!, rssMb(client.daemon.proc.pid!));
  const during = sent.filter((s) => s.at >= faultAt && s.at <= faultEnd);
  const resend = resendFigures(client.daemon, server.daemon);
  t.diagnostic(
    `${transport} killed and started again: away ${faultEnd - faultAt} ms; first check request ${request! - faultEnd} ms after it was back; ` +
      `answered during it ${JSON.stringify(answers(during))}; all answers ${JSON.stringify(answers(sent))}; ` +
      `client ok ${figures.acked}, lost in the killed broker ${figures.lost}, stored ${figures.stored}, handled once ${figures.handledOnce}; ` +
      `re-sent ${resend.resent} (${resend.resentConfirmed} confirmed before the loss), copies dropped ${resend.copiesDropped}, ` +
      `rescued ${resend.rescued} (${resend.rescuedConfirmed} confirmed, the oldest ${resend.oldestRescuedMs} ms before the last confirmation)`,
  );
}

test('RabbitMQ killed and started again under a server and a client: acknowledged results stored and handled once, scheduling resumes', async (t) => {
  const rabbit = await rabbitFor(t);
  if (!rabbit) return;
  // Nothing acknowledged may be lost: the client sends again what the broker may have lost.
  const settings = { rabbitmq: rabbit.url };
  await brokerRestarted(t, 'rabbitmq', { settings, kill: () => rabbit.kill(), start: () => rabbit.start(), burst: 4, mayLose: () => false });
});

test('Redis killed and started again under a server and a client: acknowledged results stored and handled once, scheduling resumes', async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  // The client answers `ok` once a result is handed to the broker (as a legacy client does), and Redis keeps no list on
  // disk here: what it held when killed may be lost, and only that.
  const inBroker = (s: Sent, faultAt: number) => s.at >= faultAt - 2000 && s.at <= faultAt + 100;
  const settings = { redis: { host: '127.0.0.1', port: redis.port } };
  await brokerRestarted(t, 'redis', { settings, kill: () => redis.kill(), start: () => redis.start(), burst: 0, mayLose: inBroker });
});
