import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerLegacyForward } from '../../../src/api/dashboard/legacy-forward.js';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';

const FORWARD = '/api/checkbridge/v1/legacy';

// A fastify instance with the forward alone, to a real legacy API on a real store; `changes` counts announcements.
async function forwarded(t: TestContext, api?: Record<string, string>) {
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, ...(api ? { api } : {}) });
  const clock = new ManualClock(1_700_000_000_000);
  const { logger } = capturedLogger();
  const legacy = buildLegacyApi({
    store,
    settings: () => settings,
    intake: new Intake(store, () => settings, clock, logger),
    logger,
    clock,
    requestCheck: () => true,
  });
  const app = Fastify({ logger: false });
  const counter = { changes: 0 };
  registerLegacyForward(
    app,
    { legacy, settings: () => settings, sources: { configFile: null, configDirs: [] }, bridge: null, onEvent: () => undefined },
    () => void (counter.changes += 1),
  );
  t.after(() => Promise.all([app.close(), legacy.close()]));
  store.putClient({ name: 'web-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'web-2', address: '10.0.0.2', subscriptions: [] });
  return { app, store, counter };
}

test('the forward answers with the legacy handler’s status, body, content type and pagination', async (t) => {
  const { app, counter } = await forwarded(t);
  const client = await app.inject(`${FORWARD}/clients/web-1`);
  assert.deepEqual([client.statusCode, client.json().address], [200, '10.0.0.1']);
  assert.match(String(client.headers['content-type']), /application\/json/);
  const page = await app.inject(`${FORWARD}/clients?limit=1&offset=1`);
  assert.deepEqual(
    page.json().map((c: { name: string }) => c.name),
    ['web-2'],
  );
  assert.equal(page.headers['x-pagination'], JSON.stringify({ limit: 1, offset: 1, total: 2 }));
  assert.equal((await app.inject(`${FORWARD}/clients/absent`)).statusCode, 404);
  assert.equal(counter.changes, 0, 'a read announces nothing');
});

test('POST goes through with its body, and announces a change', async (t) => {
  const { app, store, counter } = await forwarded(t);
  const created = await app.inject({ method: 'POST', url: `${FORWARD}/stashes`, payload: { path: 'note', content: { by: 'dashboard' } } });
  assert.deepEqual([created.statusCode, created.json()], [201, { path: 'note' }]);
  assert.deepEqual(store.stashes.get('note', Date.now())?.value, { by: 'dashboard' });
  assert.equal(counter.changes, 1);
});

// The forward sends `content-type: application/json` on every method; a DELETE has no body, so the legacy API's
// fastify refuses it before any handler (FST_ERR_CTP_EMPTY_JSON_BODY) and the dashboard's deletes all answer 400.
test('DELETE goes through to the legacy handler, and announces a change', async (t) => {
  const { app, store, counter } = await forwarded(t);
  store.stashes.put('note', { by: 'dashboard' }, null);
  assert.equal((await app.inject({ method: 'DELETE', url: `${FORWARD}/stash/note` })).statusCode, 204);
  assert.equal(store.stashes.get('note', Date.now()), null);
  assert.equal((await app.inject({ method: 'DELETE', url: `${FORWARD}/clients/web-1` })).statusCode, 202);
  assert.equal(counter.changes, 2);
});

test('the path is the one the router decoded, each segment encoded again for the legacy API', async (t) => {
  const { app } = await forwarded(t);
  assert.equal((await app.inject({ method: 'POST', url: `${FORWARD}/stash/two%20words`, payload: { a: 1 } })).statusCode, 201);
  assert.deepEqual((await app.inject(`${FORWARD}/stash/two%20words`)).json(), { a: 1 });
  assert.equal((await app.inject(`${FORWARD}/stashes`)).json()[0].path, 'two words');
});

test('only the dashboard’s legacy resources are forwarded: settings and health are not (404 in the v2 form)', async (t) => {
  const { app } = await forwarded(t);
  for (const path of ['settings', 'health', 'settings?redacted=false', '', 'clientsx']) {
    const answer = await app.inject(`${FORWARD}/${path}`);
    assert.deepEqual([answer.statusCode, answer.json()], [404, { message: 'not a dashboard resource', code: 2 }], path);
  }
});

test('the forward carries the legacy API’s own credentials when it has them', async (t) => {
  const { app } = await forwarded(t, { user: 'ops', password: 'pw:with:colons' });
  assert.equal((await app.inject(`${FORWARD}/clients/web-1`)).statusCode, 200);
});
