// The server role's switching: the once-per-cluster work runs while elected and pauses while the broker is away,
// driven by a real election (alone, or two servers on PostgreSQL) and a real broker (Redis).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as delivered } from 'node:timers/promises';
import { DutyGate, ServerDuties } from '../../src/scheduling/server-duties.js';
import { Scheduling } from '../../src/scheduling/service.js';
import { Keepalives } from '../../src/keepalives/service.js';
import { AlwaysLeader, leadershipFor, type Leadership, type PostgresElector } from '../../src/cluster/index.js';
import { EmbeddedEventStore } from '../../src/store/tables/embedded-event-store.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { InProcessTransport, type CheckRequest, type WireTransport } from '../../src/transport/index.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { redisFor } from '../servers/redis.js';
import { postgresFor } from '../servers/postgres.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { until } from '../helpers/wait.js';

const NOW_MS = Date.parse('2026-11-18T12:00:00.000Z');
const settings = settingsOf({ checks: { disk: { command: 'check-disk', interval: 60, subscribers: ['linux'] } }, checkbridge: { entity_limit: 0 } });

/** One server's scheduling and monitors behind `leadership` (and `broker`), switched by its duties. */
function serverOf(t: TestContext, leadership: Leadership, broker: WireTransport | null) {
  const { store, intake } = sqliteIntake(t);
  const clock = new ManualClock(NOW_MS);
  const transport = new InProcessTransport();
  const heard: CheckRequest[] = [];
  transport.subscribe('linux', 'legacy-client', (request) => heard.push(request));
  const { logger, messages } = capturedLogger();
  const gate = new DutyGate(leadership, broker);
  const scheduling = new Scheduling({
    clock,
    store,
    transport,
    clients: () => [],
    namespace: () => 'default',
    logger,
    scheduling: true,
    leading: gate.leading,
  });
  const keepalives = new Keepalives({
    store,
    events: new EmbeddedEventStore(store.resources),
    intake,
    settings: () => settings,
    results: intake,
    logger,
    clock,
    monitorMs: 20,
    mayMonitor: gate.mayMonitor,
    leading: gate.leading,
  });
  const duties = new ServerDuties({ leadership, broker, scheduling, keepalives, sender: null, isStopping: () => false, logger });
  t.after(async () => {
    await duties.stop();
    await keepalives.stop();
    await scheduling.stop();
  });
  // A client whose last keepalive is long past its critical threshold: a monitors' pass raises it.
  store.putClient({ name: 'silent', address: 'silent', subscriptions: [], timestamp: NOW_MS / 1000 - 3600 });
  const monitored = () => (store.getResult('silent', 'keepalive')?.check as { status?: number } | undefined)?.status === 2;
  /** Check requests heard after one interval more. */
  const requestsAfterInterval = async () => {
    const before = heard.length;
    clock.advanceBy(60_000);
    await delivered();
    return heard.length - before;
  };
  return { gate, duties, scheduling, monitored, requestsAfterInterval, messages };
}

test('a server alone is elected as its election starts: check requests go out and the monitors run', async (t) => {
  const leadership = new AlwaysLeader();
  const { gate, duties, scheduling, monitored, requestsAfterInterval } = serverOf(t, leadership, null);
  assert.equal(duties.name, 'leadership');
  await scheduling.start();
  scheduling.apply(settings);
  await duties.start();
  assert.equal(gate.leading(), true);
  assert.equal(gate.mayMonitor(), true);
  assert.equal(await requestsAfterInterval(), 1);
  assert.ok(await until(monitored, 5000), 'a monitors pass raised the silent client');
});

test('over a broker: nothing until it is connected, paused while it is away (said once), resumed when it is back', { timeout: 90_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const broker = new RedisTransport(redisOptions({ host: '127.0.0.1', port: redis.port }), capturedLogger().logger);
  t.after(() => broker.close());
  const { gate, duties, scheduling, requestsAfterInterval, messages } = serverOf(t, new AlwaysLeader(), broker);
  await scheduling.start();
  scheduling.apply(settings);
  await duties.start();
  assert.equal(await requestsAfterInterval(), 0, 'nothing before the broker is connected');
  assert.equal(gate.mayMonitor(), false);
  broker.start();
  assert.ok(await until(() => broker.connected(), 15_000), 'connected');
  assert.equal(await requestsAfterInterval(), 1);
  assert.equal(gate.mayMonitor(), true);

  await redis.kill();
  assert.ok(await until(() => !broker.connected(), 15_000), 'the loss is noticed');
  assert.equal(await requestsAfterInterval(), 0, 'nothing while the broker is away');
  assert.equal(gate.mayMonitor(), false);
  assert.deepEqual(scheduling.publisher.scheduledChecks(), [], "away: the schedule's timers cancelled");
  assert.equal(messages().filter((m) => m === 'transport is not connected: check requests and monitors paused until it is').length, 1);

  await redis.start();
  assert.ok(await until(() => broker.connected(), 30_000), 'connected again');
  assert.equal(await requestsAfterInterval(), 1, 'resumed');
});

test('two servers on one PostgreSQL: only the elected one schedules; when it loses, the other takes over', { timeout: 60_000 }, async (t) => {
  const server = await postgresFor(t);
  if (!server) return;
  const servers = (['one', 'two'] as const).map((name, i) => {
    const leadership = leadershipFor(server.url(), { name, pid: 1000 + i }, capturedLogger().logger) as PostgresElector;
    return { leadership, ...serverOf(t, leadership, null) };
  });
  for (const { scheduling, duties } of servers) {
    await scheduling.start();
    scheduling.apply(settings);
    await duties.start();
  }
  assert.ok(await until(() => servers.some((s) => s.leadership.isLeader()), 10_000), 'someone is elected');
  const leader = servers.find((s) => s.leadership.isLeader())!;
  const other = servers.find((s) => s !== leader)!;
  assert.equal(await leader.requestsAfterInterval(), 1);
  assert.equal(await other.requestsAfterInterval(), 0, 'not elected: no check requests');
  assert.equal(other.gate.mayMonitor(), false);

  await server.query(`SELECT pg_terminate_backend(${leader.leadership.backendPid()})`);
  assert.ok(await until(() => other.leadership.isLeader(), 15_000), 'the other takes over');
  assert.equal(await leader.requestsAfterInterval(), 0, 'lost: no more check requests');
  assert.deepEqual(leader.scheduling.publisher.scheduledChecks(), [], "lost: the schedule's timers cancelled");
  assert.deepEqual(other.scheduling.publisher.scheduledChecks(), ['disk']);
  assert.equal(await other.requestsAfterInterval(), 1);
  assert.ok(await until(other.monitored, 5000), "the new leader's monitors run");
});
