import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { until } from '../../helpers/wait.js';
import type { Json } from '../../../src/json.js';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;

// The legacy API over a real store and intake, in namespace team-a; agents of team-b are not shown.
function legacyApi(t: TestContext, checkbridge: Record<string, unknown> = {}) {
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { namespace: 'team-a', ...checkbridge } });
  const clock = new ManualClock(NOW_MS);
  const { logger } = capturedLogger();
  const intake = new Intake(store, () => settings, clock, logger);
  const app = buildLegacyApi({ store, settings: () => settings, intake, logger, clock, requestCheck: () => false });
  t.after(() => app.close());
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: ['web'] });
  store.putClient({ name: 'gone', signature: 'invalidated', invalidated: true });
  store.putClient({ name: 'agent-a', entity_class: 'agent', namespace: 'team-a', subscriptions: [] });
  store.putClient({ name: 'agent-b', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  return { app, store, intake };
}

const post = (body: unknown) => ({ method: 'POST' as const, url: '/clients', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('GET /clients lists the clients the caller sees: not invalidated ones, not agents of another namespace', async (t) => {
  const { app } = legacyApi(t);
  assert.deepEqual(
    (await app.inject('/clients')).json().map((c: Json) => c.name),
    ['agent-a', 'legacy-1'],
  );
  assert.equal((await app.inject('/clients/legacy-1')).json().address, '10.0.0.1');
  for (const name of ['gone', 'agent-b', 'absent']) assert.equal((await app.inject(`/clients/${name}`)).statusCode, 404, name);
});

test('POST /clients registers a client with its own subscription, the legacy version and now; 201 names it', async (t) => {
  const { app, store } = legacyApi(t);
  const answer = await app.inject(post({ name: 'web-9', address: '10.0.0.9', subscriptions: ['web', 'web'], environment: 'prod' }));
  assert.deepEqual([answer.statusCode, answer.json()], [201, { name: 'web-9' }]);
  assert.deepEqual(store.getClient('web-9'), {
    keepalives: false,
    name: 'web-9',
    address: '10.0.0.9',
    subscriptions: ['web', 'client:web-9'],
    environment: 'prod',
    version: '1.9.0',
    timestamp: NOW,
  });
  assert.equal((await app.inject(post({ name: 'web-10', address: 'a' }))).statusCode, 201, 'subscriptions default to none');
  assert.deepEqual(store.getClient('web-10')?.subscriptions, ['client:web-10']);
});

test('POST /clients refuses what is no client: not an object, schema problems, a bad name, an agent class', async (t) => {
  const { app, store } = legacyApi(t);
  for (const body of [[], 'text', null]) assert.equal((await app.inject(post(body))).statusCode, 400, JSON.stringify(body));
  assert.equal((await app.inject(post({ address: '10.0.0.1' }))).statusCode, 400, 'no name');
  assert.equal((await app.inject(post({ name: 'x', address: '10.0.0.1', subscriptions: 'web' }))).statusCode, 400, 'subscriptions not a list');
  const long = await app.inject(post({ name: 'x'.repeat(300), address: '10.0.0.1' }));
  assert.equal(long.statusCode, 400);
  assert.ok(long.headers['x-checkbridge-error'], 'the reason travels in a header');
  const agent = await app.inject(post({ name: 'new-agent', address: '10.0.0.1', entity_class: 'agent', namespace: 'team-b' }));
  assert.deepEqual(
    [agent.statusCode, agent.headers['x-checkbridge-error']],
    [400, 'entity_class agent is for Sensu Go agents, which register over the agent WebSocket'],
  );
  assert.equal(store.getClient('new-agent'), null);
});

test("POST /clients cannot replace a Sensu Go agent's client record, of any namespace (409)", async (t) => {
  const { app, store } = legacyApi(t);
  for (const name of ['agent-a', 'agent-b']) {
    const answer = await app.inject(post({ name, address: '10.0.0.1' }));
    assert.deepEqual(
      [answer.statusCode, answer.headers['x-checkbridge-error']],
      [409, `${name} is a Sensu Go agent's client record: only its agent updates it`],
    );
    assert.equal(store.getClient(name)?.entity_class, 'agent');
  }
});

test('POST /clients refuses a new client at the entity limit with 402, and still updates one that exists', async (t) => {
  const { app, store } = legacyApi(t, { entity_limit: 1 });
  const refused = await app.inject(post({ name: 'one-more', address: '10.0.0.2' }));
  assert.equal(refused.statusCode, 402);
  assert.match(refused.json().error, /1/);
  assert.equal(store.getClient('one-more'), null);
  assert.equal((await app.inject(post({ name: 'legacy-1', address: '10.0.0.5' }))).statusCode, 201);
  assert.equal(store.getClient('legacy-1')?.address, '10.0.0.5');
});

test('GET /clients/NAME/history: each legacy result with history, and an agent check from its v2 history, in check order', async (t) => {
  const { app, store } = legacyApi(t);
  store.putResult(
    'legacy-1',
    { name: 'disk', status: 2, output: 'full', executed: NOW - 5 },
    [
      { status: 0, executed: NOW - 65 },
      { status: 2, executed: NOW - 5 },
    ],
    NOW - 65,
  );
  store.putResult('legacy-1', { name: 'never-ran', status: 0, output: '' }, [], null);
  assert.deepEqual((await app.inject('/clients/legacy-1/history')).json(), [
    { check: 'disk', history: [0, 2], last_execution: NOW - 5, last_status: 2, last_result: { name: 'disk', status: 2, output: 'full', executed: NOW - 5 } },
  ]);
  store.putResult('agent-a', { name: 'zz-legacy', status: 1, output: 'warn', executed: NOW }, [{ status: 1, executed: NOW }], null);
  store.resources.putEvent('team-a', 'agent-a', 'cpu', {
    entity: { metadata: { name: 'agent-a', namespace: 'team-a' } },
    check: { metadata: { name: 'cpu' }, status: 1, output: 'hot', executed: NOW - 1, history: [{ status: 0 }, { status: 1 }] },
  });
  const history = (await app.inject('/clients/agent-a/history')).json();
  assert.deepEqual(
    history.map((h: Json) => [h.check, h.history, h.last_status]),
    [
      ['cpu', [0, 1], 1],
      ['zz-legacy', [1], 1],
    ],
  );
  store.putResult('agent-b', { name: 'disk', status: 2, output: 'x', executed: NOW }, [{ status: 2, executed: NOW }], null);
  assert.deepEqual((await app.inject('/clients/agent-b/history')).json(), [], 'a hidden agent has no history here');
});

test('DELETE /clients/NAME resolves its open events, then removes the client with its results (202 at once)', async (t) => {
  const { app, store, intake } = legacyApi(t);
  await intake.submit({ client: 'legacy-1', check: { name: 'disk', status: 2, output: 'full', issued: NOW, executed: NOW } });
  assert.equal(store.getEvent('legacy-1', 'disk')?.action, 'create');
  const answer = await app.inject({ method: 'DELETE', url: '/clients/legacy-1' });
  assert.deepEqual([answer.statusCode, answer.json()], [202, { issued: NOW }]);
  assert.ok(await until(() => store.getClient('legacy-1') === null, 5000), 'the client is removed');
  assert.deepEqual([store.listResults('legacy-1'), store.listEvents('legacy-1')], [[], []]);
  for (const name of ['gone', 'agent-b', 'legacy-1']) assert.equal((await app.inject({ method: 'DELETE', url: `/clients/${name}` })).statusCode, 404, name);
});

test('DELETE /clients/NAME?invalidate leaves a tombstone, until now + invalidate_expire when given', async (t) => {
  const { app, store } = legacyApi(t);
  store.putClient({ name: 'web-2', address: '10.0.0.2', subscriptions: [] });
  assert.equal((await app.inject({ method: 'DELETE', url: '/clients/legacy-1?invalidate' })).statusCode, 202);
  assert.equal((await app.inject({ method: 'DELETE', url: '/clients/web-2?invalidate&invalidate_expire=60' })).statusCode, 202);
  assert.ok(await until(() => Boolean(store.getClient('legacy-1')?.invalidated && store.getClient('web-2')?.invalidated), 5000));
  assert.equal(store.getClient('legacy-1')?.invalidated_until, null);
  assert.equal(store.getClient('web-2')?.invalidated_until, NOW + 60);
  assert.equal((await app.inject('/clients/web-2')).statusCode, 404);
});

test('DELETE /clients/NAME of an agent resolves its open v2 events as an OK of the same check', async (t) => {
  const { app, store } = legacyApi(t);
  store.resources.putResource('Namespace', '', 'team-a', { name: 'team-a' });
  store.resources.putEvent('team-a', 'agent-a', 'cpu', {
    metadata: { namespace: 'team-a' },
    entity: { entity_class: 'agent', metadata: { name: 'agent-a', namespace: 'team-a' } },
    check: {
      metadata: { name: 'cpu', namespace: 'team-a' },
      interval: 60,
      status: 2,
      output: 'hot',
      executed: NOW - 1,
      history: [{ status: 2, executed: NOW - 1 }],
    },
  });
  assert.equal((await app.inject({ method: 'DELETE', url: '/clients/agent-a' })).statusCode, 202);
  assert.ok(await until(() => store.getClient('agent-a') === null, 5000));
  const event = store.resources.getEvent('team-a', 'agent-a', 'cpu') as Json;
  assert.deepEqual([event.check.status, event.check.output], [0, 'Resolving on request of the API']);
});
