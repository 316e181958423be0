import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';

const NOW_MS = 1_700_000_000_000;
const CONFIG = {
  client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] },
  checkbridge: { namespace: 'team-a' },
  checks: {
    disk: { command: 'check-disk -w 80', interval: 60, subscribers: ['web'], handlers: ['mail'] },
    cpu: { command: 'check-cpu', interval: 30, subscribers: ['db'] },
    solo: { command: 'check-solo', interval: 60, standalone: true },
  },
};

type Request = { name: string; subscribers: string[] | undefined; meta: Record<string, unknown> };

// The legacy API over a real store and intake; check requests are recorded, and only `disk` and `cpu` are known.
function legacyApi(t: TestContext) {
  const store = sqliteStore(t);
  const settings = settingsOf(CONFIG);
  const clock = new ManualClock(NOW_MS);
  const { logger } = capturedLogger();
  const requests: Request[] = [];
  const app = buildLegacyApi({
    store,
    settings: () => settings,
    intake: new Intake(store, () => settings, clock, logger),
    logger,
    clock,
    requestCheck: (name, subscribers, meta) => (requests.push({ name, subscribers, meta }), name === 'disk' || name === 'cpu'),
  });
  t.after(() => app.close());
  return { app, store, requests };
}

test('GET /checks lists the configured definitions, standalone checks left out; GET /checks/NAME reads one', async (t) => {
  const { app } = legacyApi(t);
  const list = (await app.inject('/checks')).json() as { name: string; command: string }[];
  assert.deepEqual(
    list.map((c) => [c.name, c.command]),
    [
      ['disk', 'check-disk -w 80'],
      ['cpu', 'check-cpu'],
    ],
  );
  const disk = await app.inject('/checks/disk');
  assert.equal(disk.statusCode, 200);
  assert.deepEqual(disk.json(), { command: 'check-disk -w 80', interval: 60, subscribers: ['web'], handlers: ['mail'], name: 'disk' });
  assert.equal((await app.inject('/checks/solo')).statusCode, 404, 'a standalone check is the clients’ own');
  assert.equal((await app.inject('/checks/absent')).statusCode, 404);
  assert.equal((await app.inject('/checks?limit=1')).headers['x-pagination'], JSON.stringify({ limit: 1, offset: 0, total: 2 }));
});

test("DELETE /checks/NAME removes the check's results of every client the caller sees, and answers 202 issued", async (t) => {
  const { app, store } = legacyApi(t);
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'away', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  for (const client of ['legacy-1', 'away']) store.putResult(client, { name: 'disk', status: 2, output: 'full' }, [{ status: 2, executed: 1 }], null);
  store.putResult('legacy-1', { name: 'cpu', status: 0, output: 'ok' }, [{ status: 0, executed: 1 }], 1);
  const answer = await app.inject({ method: 'DELETE', url: '/checks/disk' });
  assert.deepEqual([answer.statusCode, answer.json()], [202, { issued: NOW_MS / 1000 }]);
  // A hidden agent's result stays (an agent's keepalive is such a result).
  assert.deepEqual(
    store
      .listResults()
      .map((r) => `${r.client}/${String(r.check.name)}`)
      .sort(),
    ['away/disk', 'legacy-1/cpu'],
  );
});

test('DELETE /checks/NAME with every client in view removes all its results, those of clients without a record too', async (t) => {
  const { app, store } = legacyApi(t);
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: [] });
  for (const client of ['legacy-1', 'no-record']) store.putResult(client, { name: 'disk', status: 2, output: 'full' }, [{ status: 2, executed: 1 }], null);
  assert.equal((await app.inject({ method: 'DELETE', url: '/checks/disk' })).statusCode, 202);
  assert.deepEqual(store.listResults(), []);
});

test('POST /request publishes a check request with its subscribers, reason and creator; an unknown check is 404', async (t) => {
  const { app, requests } = legacyApi(t);
  const answer = await app.inject({ method: 'POST', url: '/request', payload: { check: 'disk', subscribers: ['web', 7], reason: 'why not', creator: 'ops' } });
  assert.deepEqual([answer.statusCode, answer.json()], [202, { issued: NOW_MS / 1000 }]);
  assert.equal((await app.inject({ method: 'POST', url: '/request', payload: { check: 'cpu' } })).statusCode, 202);
  assert.equal((await app.inject({ method: 'POST', url: '/request', payload: { check: 'absent' } })).statusCode, 404);
  assert.deepEqual(requests, [
    { name: 'disk', subscribers: ['web', '7'], meta: { reason: 'why not', creator: 'ops' } },
    { name: 'cpu', subscribers: undefined, meta: { reason: undefined, creator: undefined } },
    { name: 'absent', subscribers: undefined, meta: { reason: undefined, creator: undefined } },
  ]);
});

test('POST /request refuses a body without a check name, or with subscribers, reason or creator of the wrong type', async (t) => {
  const { app, requests } = legacyApi(t);
  for (const payload of [{}, { check: 7 }, { check: 'disk', subscribers: 'web' }, { check: 'disk', reason: 1 }, { check: 'disk', creator: {} }, 'null']) {
    const answer = await app.inject({ method: 'POST', url: '/request', payload, headers: { 'content-type': 'application/json' } });
    assert.equal(answer.statusCode, 400, JSON.stringify(payload));
  }
  assert.deepEqual(requests, []);
});
