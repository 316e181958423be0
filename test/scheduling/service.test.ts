// The scheduler as a service: conf.d checks to legacy clients over the transport and to connected agents, held while
// not elected or while the broker is away.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setImmediate as delivered } from 'node:timers/promises';
import { WebSocket, WebSocketServer } from 'ws';
import { Scheduling } from '../../src/scheduling/service.js';
import { AgentSession, SessionRegistry } from '../../src/agentd/sessions.js';
import { decodeFrame } from '../../src/agentd/frames.js';
import { RemoteSecrets } from '../../src/secrets/index.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { InProcessTransport, type CheckRequest } from '../../src/transport/index.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { until } from '../helpers/wait.js';

const T0 = Date.parse('2026-11-18T12:00:00.000Z');
const settings = settingsOf({ checks: { disk: { command: 'check-disk', interval: 60, subscribers: ['linux'] } } });

function schedulingOf(t: TestContext, withSecrets = true) {
  const store = sqliteStore(t);
  const clock = new ManualClock(T0);
  const transport = new InProcessTransport();
  const heard: CheckRequest[] = [];
  transport.subscribe('linux', 'legacy-client', (request) => heard.push(request));
  const { logger } = capturedLogger();
  const scheduling = new Scheduling({
    clock,
    store,
    transport,
    clients: () => [],
    namespace: () => 'default',
    logger,
    scheduling: true,
    leading: () => true,
    ...(withSecrets ? { agentSecrets: new RemoteSecrets(async () => ({ ok: true as const, env: {}, values: [] }), logger) } : {}),
  });
  t.after(() => scheduling.stop());
  return { clock, scheduling, heard };
}

test('conf.d checks reach legacy clients every interval, not while not elected nor while the broker is away', async (t) => {
  const { clock, scheduling, heard } = schedulingOf(t);
  assert.equal(scheduling.name, 'scheduler');
  await scheduling.start();
  scheduling.apply(settings);
  clock.advanceBy(60_000);
  await delivered();
  assert.deepEqual(
    heard.map((r) => [r.name, r.command]),
    [['disk', 'check-disk']],
  );
  scheduling.lead(false);
  clock.advanceBy(120_000);
  scheduling.lead(true);
  scheduling.brokerAway(true);
  clock.advanceBy(120_000);
  await delivered();
  assert.equal(heard.length, 1, 'nothing while held');
  scheduling.brokerAway(false);
  clock.advanceBy(60_000);
  await delivered();
  assert.equal(heard.length, 2);
});

test("connected agents of a check's subscription get its translation too, until they are taken away", async (t) => {
  const { clock, scheduling, heard } = schedulingOf(t);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const agent = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const requests: Record<string, any>[] = [];
  agent.on('message', (data: Buffer) => {
    const frame = decodeFrame(data)!;
    if (frame.type === 'check_request') requests.push(JSON.parse(frame.payload.toString()));
  });
  t.after(async () => {
    agent.terminate();
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  await once(agent, 'open');
  const [server] = await accepted;
  const sessions = new SessionRegistry();
  sessions.add(new AgentSession({ name: 'web-1', namespace: 'default', user: 'agent', subscriptions: ['linux'], tls: false, mtls: false }, server));
  const unregister = scheduling.registerAgents(sessions);
  await scheduling.start();
  scheduling.apply(settings);
  clock.advanceBy(60_000);
  assert.ok(await until(() => requests.length === 1, 5000), 'the agent got the request');
  assert.deepEqual([requests[0]!.config.metadata.name, requests[0]!.config.command], ['disk', 'check-disk']);
  assert.equal(heard.length, 1, 'the legacy client got it too');
  unregister();
  clock.advanceBy(60_000);
  await delivered();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual([requests.length, heard.length], [1, 2]);
});

test('agents cannot be registered without a secrets delivery for them', (t) => {
  const { scheduling } = schedulingOf(t, false);
  assert.throws(() => scheduling.registerAgents(new SessionRegistry()), { message: 'the scheduler has no secrets delivery for agents' });
});
