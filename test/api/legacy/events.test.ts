import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import type { Json } from '../../../src/json.js';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;

const agentEvent = (namespace: string, entity: string, check: string, status: number) => ({
  metadata: { namespace },
  entity: { entity_class: 'agent', metadata: { name: entity, namespace } },
  check: {
    metadata: { name: check, namespace },
    interval: 60,
    status,
    output: `${check} ${status}`,
    executed: NOW - 1,
    history: [{ status, executed: NOW - 1 }],
  },
  timestamp: NOW - 1,
});

// The legacy API in namespace team-a over a real store and intake: legacy events of web-1 and of team-b's agent's
// keepalive, and open and OK v2 events of agents in team-a (shown) and team-b (not).
async function legacyApi(t: TestContext) {
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { namespace: 'team-a', entity_limit: 0 } });
  const clock = new ManualClock(NOW_MS);
  const { logger } = capturedLogger();
  const intake = new Intake(store, () => settings, clock, logger);
  const app = buildLegacyApi({ store, settings: () => settings, intake, logger, clock, requestCheck: () => false });
  t.after(() => app.close());
  store.resources.putResource('Namespace', '', 'team-a', { name: 'team-a' });
  store.putClient({ name: 'web-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'agent-a', entity_class: 'agent', namespace: 'team-a', subscriptions: [] });
  store.putClient({ name: 'agent-b', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  await intake.submit({ client: 'web-1', check: { name: 'disk', status: 2, output: 'full', issued: NOW, executed: NOW } });
  // An agent's keepalive is written by the agent side, never through the intake's legacy door.
  const keepalive = { name: 'keepalive', status: 2, output: 'lost', executed: NOW };
  store.putResult('agent-b', keepalive, [{ status: 2, executed: NOW }], null);
  store.putEvent('agent-b', 'keepalive', { client: store.getClient('agent-b')!, check: keepalive, occurrences: 1, action: 'create', timestamp: NOW });
  store.resources.putEvent('team-a', 'agent-a', 'cpu', agentEvent('team-a', 'agent-a', 'cpu', 2));
  store.resources.putEvent('team-a', 'agent-a', 'mem', agentEvent('team-a', 'agent-a', 'mem', 0));
  store.resources.putEvent('team-b', 'agent-b', 'cpu', agentEvent('team-b', 'agent-b', 'cpu', 2));
  return { app, store };
}

const keys = (events: Json[]) => events.map((e) => `${e.client.name}/${e.check.name}`);

test('GET /events and /incidents: legacy events and agents’ open events the caller sees, in client then check order', async (t) => {
  const { app } = await legacyApi(t);
  for (const path of ['/events', '/incidents']) assert.deepEqual(keys((await app.inject(path)).json()), ['agent-a/cpu', 'web-1/disk'], path);
  const agent = (await app.inject('/events/agent-a')).json();
  assert.deepEqual(keys(agent), ['agent-a/cpu']);
  assert.deepEqual([agent[0].check.status, agent[0].client.namespace, agent[0].action], [2, 'team-a', 'create']);
  assert.deepEqual(keys((await app.inject('/events/web-1')).json()), ['web-1/disk']);
  assert.deepEqual((await app.inject('/events/agent-b')).json(), [], 'a hidden agent has no events here');
  assert.equal((await app.inject('/events?limit=1')).headers['x-pagination'], JSON.stringify({ limit: 1, offset: 0, total: 2 }));
});

test('GET /events/CLIENT/CHECK: a legacy event, or an agent’s open one; 404 for an OK check, a hidden agent, nothing', async (t) => {
  const { app } = await legacyApi(t);
  const legacy = (await app.inject('/events/web-1/disk')).json();
  assert.deepEqual([legacy.client.name, legacy.check.status, legacy.check.output], ['web-1', 2, 'full']);
  assert.deepEqual((await app.inject('/events/agent-a/cpu')).json().check.output, 'cpu 2');
  for (const path of ['/events/agent-a/mem', '/events/agent-b/keepalive', '/events/agent-b/cpu', '/events/web-1/absent'])
    assert.equal((await app.inject(path)).statusCode, 404, path);
});

test('DELETE /events/CLIENT/CHECK resolves a legacy event through the intake (202 issued); then it is gone', async (t) => {
  const { app, store } = await legacyApi(t);
  const answer = await app.inject({ method: 'DELETE', url: '/events/web-1/disk' });
  assert.deepEqual([answer.statusCode, answer.json()], [202, { issued: NOW }]);
  assert.equal(store.getEvent('web-1', 'disk'), null);
  assert.deepEqual(store.getResult('web-1', 'disk')?.check.status, 0);
  assert.equal((await app.inject({ method: 'DELETE', url: '/events/web-1/disk' })).statusCode, 404, 'nothing left to resolve');
});

test('POST /resolve resolves an agent’s open event as an OK v2 event; a hidden agent’s is 404 and stays open', async (t) => {
  const { app, store } = await legacyApi(t);
  const resolve = (body: unknown) =>
    app.inject({ method: 'POST', url: '/resolve', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal((await resolve({ client: 'agent-a', check: 'cpu' })).statusCode, 202);
  assert.deepEqual((store.resources.getEvent('team-a', 'agent-a', 'cpu') as Json).check.status, 0);
  assert.equal((await app.inject('/events/agent-a/cpu')).statusCode, 404);
  assert.equal((await resolve({ client: 'agent-b', check: 'keepalive' })).statusCode, 404);
  assert.equal((await resolve({ client: 'agent-b', check: 'cpu' })).statusCode, 404);
  assert.equal((store.getEvent('agent-b', 'keepalive')?.check as Json | undefined)?.status, 2);
  assert.equal((await resolve({ client: 'agent-a', check: 'mem' })).statusCode, 404, 'an OK check is no event');
  for (const body of [{ client: 'web-1' }, { check: 'disk' }, { client: 1, check: 'disk' }, null])
    assert.equal((await resolve(body)).statusCode, 400, JSON.stringify(body));
});
