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

const agentEvent = (namespace: string, entity: string, check: string, statuses: number[]) => ({
  metadata: { namespace },
  entity: { entity_class: 'agent', metadata: { name: entity, namespace } },
  check: {
    metadata: { name: check, namespace },
    interval: 60,
    status: statuses.at(-1),
    output: `${check} out`,
    executed: NOW - 1,
    history: statuses.map((status) => ({ status, executed: NOW - 1 })),
  },
});

// The legacy API in namespace team-a over a real store and intake: web-1's legacy results, agent-a's v2 events (shown)
// and agent-b's (team-b: not shown), agent-b's keepalive a legacy result.
function legacyApi(t: TestContext, checkbridge: Record<string, unknown> = { entity_limit: 0 }) {
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { namespace: 'team-a', ...checkbridge } });
  const clock = new ManualClock(NOW_MS);
  const { logger } = capturedLogger();
  const app = buildLegacyApi({
    store,
    settings: () => settings,
    intake: new Intake(store, () => settings, clock, logger),
    logger,
    clock,
    requestCheck: () => false,
  });
  t.after(() => app.close());
  store.putClient({ name: 'web-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'agent-a', entity_class: 'agent', namespace: 'team-a', subscriptions: [] });
  store.putClient({ name: 'agent-b', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  store.putResult(
    'web-1',
    { name: 'disk', status: 2, output: 'full' },
    [
      { status: 0, executed: NOW - 60 },
      { status: 2, executed: NOW },
    ],
    NOW - 60,
  );
  store.putResult('agent-b', { name: 'keepalive', status: 0, output: 'alive' }, [{ status: 0, executed: NOW }], NOW);
  store.resources.putEvent('team-a', 'agent-a', 'cpu', agentEvent('team-a', 'agent-a', 'cpu', [1, 0]));
  store.resources.putEvent('team-b', 'agent-b', 'cpu', agentEvent('team-b', 'agent-b', 'cpu', [2]));
  return { app, store };
}

const keys = (results: Json[]) => results.map((r) => `${r.client}/${r.check.name}`);
const post = (body: unknown) => ({ method: 'POST' as const, url: '/results', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test("GET /results: legacy results with statuses as history, then the shown agents' checks, in client then check order", async (t) => {
  const { app } = legacyApi(t);
  const all = (await app.inject('/results')).json();
  assert.deepEqual(keys(all), ['agent-a/cpu', 'web-1/disk']);
  assert.deepEqual(all[1], { client: 'web-1', check: { name: 'disk', status: 2, output: 'full', history: [0, 2] } });
  assert.deepEqual([all[0].check.status, all[0].check.history], [0, ['1', '0']]);
  assert.deepEqual(keys((await app.inject('/results/agent-a')).json()), ['agent-a/cpu']);
  assert.deepEqual((await app.inject('/results/agent-b')).json(), [], 'a hidden agent has no results here');
});

test('GET /results/CLIENT/CHECK: a legacy result, an agent check as a result; 404 for a hidden agent or nothing', async (t) => {
  const { app } = legacyApi(t);
  assert.deepEqual((await app.inject('/results/web-1/disk')).json().check.history, [0, 2]);
  assert.deepEqual((await app.inject('/results/agent-a/cpu')).json().check.output, 'cpu out');
  for (const path of ['/results/agent-b/keepalive', '/results/agent-b/cpu', '/results/web-1/absent'])
    assert.equal((await app.inject(path)).statusCode, 404, path);
});

test("DELETE /results/CLIENT/CHECK removes a legacy result (204); an agent's is its v2 event (409 naming the v2 path)", async (t) => {
  const { app, store } = legacyApi(t);
  assert.equal((await app.inject({ method: 'DELETE', url: '/results/web-1/disk' })).statusCode, 204);
  assert.equal(store.getResult('web-1', 'disk'), null);
  assert.equal((await app.inject({ method: 'DELETE', url: '/results/web-1/disk' })).statusCode, 404);
  const agent = await app.inject({ method: 'DELETE', url: '/results/agent-a/cpu' });
  assert.deepEqual(
    [agent.statusCode, agent.headers['x-checkbridge-error']],
    [409, 'the result of Sensu Go agent agent-a is its v2 event: DELETE /api/core/v2/namespaces/team-a/events/agent-a/cpu'],
  );
  assert.ok(store.resources.getEvent('team-a', 'agent-a', 'cpu'));
  assert.equal((await app.inject({ method: 'DELETE', url: '/results/agent-b/keepalive' })).statusCode, 404, 'a hidden agent');
  assert.ok(store.getResult('agent-b', 'keepalive'));
});

test('POST /results stores a result for its source, or for checkbridge-api without one, issued and executed now (202)', async (t) => {
  const { app, store } = legacyApi(t);
  const answer = await app.inject(post({ name: 'backup', output: 'done', status: 0 }));
  assert.deepEqual([answer.statusCode, answer.json()], [202, { issued: NOW }]);
  const stored = store.getResult('checkbridge-api', 'backup')!;
  assert.deepEqual([stored.check.output, stored.check.issued, stored.check.executed], ['done', NOW, NOW]);
  assert.equal((await app.inject(post({ name: 'ping', source: 'router-1', output: 'down', status: 2 }))).statusCode, 202);
  assert.equal(store.getEvent('router-1', 'ping')?.action, 'create');
  assert.equal((await app.inject(post({ name: 'disk', source: 'agent-a', output: 'own namespace', status: 1 }))).statusCode, 202);
});

test("POST /results refuses an invalid result, and any result for another namespace's agent, with the reason", async (t) => {
  const { app, store } = legacyApi(t);
  const invalid = await app.inject(post({ name: 'x', output: 'y', status: 'bad' }));
  assert.equal(invalid.statusCode, 400);
  assert.match(String(invalid.headers['x-checkbridge-error']), /status/);
  assert.equal((await app.inject(post({ output: 'no name', status: 0 }))).statusCode, 400);
  const away = await app.inject(post({ name: 'disk', source: 'agent-b', output: 'posed', status: 2 }));
  assert.deepEqual(
    [away.statusCode, away.headers['x-checkbridge-error']],
    [400, 'source "agent-b" is a Sensu Go agent of another namespace than team-a: its results come only over the agent WebSocket'],
  );
  assert.equal(store.getResult('agent-b', 'disk'), null);
});

test('POST /results for a new client at the entity limit answers the limit’s status and message', async (t) => {
  const { app, store } = legacyApi(t, { entity_limit: 1 });
  const answer = await app.inject(post({ name: 'ping', source: 'router-9', output: 'down', status: 2 }));
  assert.equal(answer.statusCode, 402);
  assert.match(answer.json().error, /entit/);
  assert.equal(store.getResult('router-9', 'ping'), null);
});
