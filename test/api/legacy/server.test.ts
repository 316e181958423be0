import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { DEPTH_MESSAGE } from '../../../src/json-depth.js';

const NOW_MS = 1_700_000_000_000;
const basic = (credentials: string) => ({ authorization: 'Basic ' + Buffer.from(credentials).toString('base64') });

// The legacy API over a real store and intake, with the configuration's `api` section given.
function legacyApi(t: TestContext, api?: Record<string, unknown>) {
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, ...(api ? { api } : {}) });
  const clock = new ManualClock(NOW_MS);
  const capture = capturedLogger();
  const app = buildLegacyApi({
    store,
    settings: () => settings,
    intake: new Intake(store, () => settings, clock, capture.logger),
    logger: capture.logger,
    clock,
    requestCheck: () => false,
  });
  t.after(() => app.close());
  store.putClient({ name: 'web-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'agent:1', entity_class: 'agent', namespace: 'default', subscriptions: [] });
  return { app, store, capture };
}

test('every answer carries a request id (the one sent, or a new one), Connection: close and the default CORS headers', async (t) => {
  const { app } = legacyApi(t);
  const sent = await app.inject({ url: '/clients', headers: { 'x-request-id': 'trace-42' } });
  assert.equal(sent.headers['x-request-id'], 'trace-42');
  const fresh = await app.inject('/nowhere');
  assert.match(String(fresh.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  assert.equal(fresh.headers.connection, 'close');
  assert.deepEqual(
    ['origin', 'methods', 'credentials', 'headers'].map((h) => sent.headers[`access-control-allow-${h}`]),
    ['*', 'GET, POST, PUT, DELETE, OPTIONS', 'true', 'Origin, X-Requested-With, Content-Type, Accept, Authorization'],
  );
});

test('a preflight OPTIONS is 200 with the configured CORS, before authentication', async (t) => {
  const { app } = legacyApi(t, { user: 'ops', password: 'pw', cors: { Origin: 'https://ops.example' } });
  const answer = await app.inject({ method: 'OPTIONS', url: '/clients' });
  assert.deepEqual([answer.statusCode, answer.headers['access-control-allow-origin']], [200, 'https://ops.example']);
});

test('with api.user and api.password every route asks for basic auth; a password may hold colons', async (t) => {
  const { app } = legacyApi(t, { user: 'ops', password: 'p:w:d' });
  for (const headers of [{}, basic('ops:wrong'), basic('other:p:w:d'), basic('ops'), { authorization: 'Bearer p:w:d' }]) {
    const answer = await app.inject({ url: '/clients', headers });
    assert.deepEqual([answer.statusCode, answer.headers['www-authenticate']], [401, 'Basic realm="Restricted Area"'], JSON.stringify(headers));
  }
  const ok = await app.inject({ url: '/clients', headers: basic('ops:p:w:d') });
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.json().length, 2);
});

test('without api credentials nobody is asked to authenticate', async (t) => {
  const { app } = legacyApi(t);
  assert.equal((await app.inject('/clients')).statusCode, 200);
});

test('GET routes answer HEAD too; a name parameter holds Sensu Go characters only once decoded, else 404', async (t) => {
  const { app } = legacyApi(t);
  const head = await app.inject({ method: 'HEAD', url: '/clients/web-1' });
  assert.equal(head.statusCode, 200);
  assert.equal((await app.inject({ method: 'HEAD', url: '/clients/absent' })).statusCode, 404);
  assert.equal((await app.inject('/clients/agent:1')).json().name, 'agent:1', 'an agent name holds a colon');
  // Lists answer 200 for any name they know nothing of: these 404s are the guard's.
  assert.equal((await app.inject('/events/web-9')).statusCode, 200);
  for (const url of ['/events/web%2F1', '/clients/web%001/history', '/results/web%201', '/events/web-1/a%2Fb'])
    assert.equal((await app.inject(url)).statusCode, 404, url);
});

// Every route of the legacy API, by path: the methods a 405 names in `Allow`, in the order the routes were added.
const ROUTES: Record<string, string> = {
  '/info': 'GET, HEAD',
  '/bridge': 'GET, HEAD',
  '/bridge/dead_letters': 'GET, HEAD',
  '/health': 'GET, HEAD',
  '/settings': 'GET, HEAD',
  '/clients': 'GET, HEAD, POST',
  '/clients/web-1': 'GET, HEAD, DELETE',
  '/clients/web-1/history': 'GET, HEAD',
  '/checks': 'GET, HEAD',
  '/checks/disk': 'GET, HEAD, DELETE',
  '/request': 'POST',
  '/events': 'GET, HEAD',
  '/incidents': 'GET, HEAD',
  '/events/web-1': 'GET, HEAD',
  '/events/web-1/disk': 'DELETE, GET, HEAD',
  '/resolve': 'POST',
  '/results': 'GET, HEAD, POST',
  '/results/web-1': 'GET, HEAD',
  '/results/web-1/disk': 'GET, HEAD, DELETE',
  '/silenced': 'POST, GET, HEAD',
  '/silenced/subscriptions/client:web-1': 'GET, HEAD',
  '/silenced/checks/disk': 'GET, HEAD',
  '/silenced/ids/*:disk': 'GET, HEAD',
  '/silenced/clear': 'POST',
  '/aggregates': 'GET, HEAD',
  '/aggregates/web': 'GET, HEAD, DELETE',
  '/aggregates/web/clients': 'GET, HEAD',
  '/aggregates/web/checks': 'GET, HEAD',
  '/aggregates/web/results/critical': 'GET, HEAD',
  '/stashes': 'GET, HEAD, POST',
  '/stashes/a/b': 'GET, HEAD, POST, DELETE',
  '/stash/a/b': 'GET, HEAD, POST, DELETE',
};

test('legacy API route table: every resource path answers a method it lacks with 405 and the same Allow; others 404', async (t) => {
  const { app } = legacyApi(t);
  const answers: Record<string, string> = {};
  for (const url of Object.keys(ROUTES)) {
    const answer = await app.inject({ method: 'PUT', url });
    assert.equal(answer.payload, '', url);
    answers[url] = `${answer.statusCode} ${answer.headers.allow}`;
  }
  assert.deepEqual(answers, Object.fromEntries(Object.entries(ROUTES).map(([path, allow]) => [path, `405 ${allow}`])));
  assert.equal((await app.inject({ method: 'PATCH', url: '/request?x=1' })).headers.allow, 'POST', 'the query is no part of the path');
  for (const url of ['/client', '/events/web-1/disk/extra', '/checks/disk/history', '/stash', '/clients/web-1/history/extra']) {
    const answer = await app.inject({ method: 'PUT', url });
    assert.deepEqual([answer.statusCode, answer.payload], [404, ''], url);
  }
});

// The 405 table matches paths with legacy's name rule, which has no `:`: a path naming an agent falls through to 404.
test('a method a path naming an agent lacks is 405 with Allow, as for any other client', async (t) => {
  const { app } = legacyApi(t);
  assert.equal((await app.inject('/clients/agent:1')).statusCode, 200);
  for (const [url, allow] of [
    ['/clients/agent:1', 'GET, HEAD, DELETE'],
    ['/events/agent:1/cpu', 'DELETE, GET, HEAD'],
  ]) {
    const answer = await app.inject({ method: 'PUT', url });
    assert.deepEqual([answer.statusCode, answer.headers.allow], [405, allow], url);
  }
});

test('a body nested deeper than the bound is a 400 naming the depth, on any route', async (t) => {
  const { app } = legacyApi(t);
  let nested: unknown = 'deep';
  for (let i = 0; i < 150; i++) nested = [nested];
  for (const url of ['/results', '/clients', '/stashes']) {
    const answer = await app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify({ name: 'x', output: 'y', status: 0, nested }),
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual([answer.statusCode, answer.headers['x-checkbridge-error']], [400, DEPTH_MESSAGE], url);
  }
});

test('errors are empty-bodied statuses: malformed JSON is 400, a failure inside a route 500 and logged', async (t) => {
  const { app, store, capture } = legacyApi(t);
  const malformed = await app.inject({ method: 'POST', url: '/results', payload: '{"name":', headers: { 'content-type': 'application/json' } });
  assert.deepEqual([malformed.statusCode, malformed.payload], [400, '']);
  assert.equal(capture.messages().includes('legacy API error'), false, 'a client error is not logged as ours');
  store.close();
  const failed = await app.inject('/clients');
  assert.deepEqual([failed.statusCode, failed.payload], [500, '']);
  assert.ok(capture.messages().includes('legacy API error'));
});

test('a DELETE typed JSON without a body is read as bodyless, as legacy did: the client goes, no 400', async (t) => {
  const { app } = legacyApi(t);
  const answer = await app.inject({ method: 'DELETE', url: '/clients/web-1', headers: { 'content-type': 'application/json' } });
  assert.equal(answer.statusCode, 202);
  const bad = await app.inject({ method: 'POST', url: '/results', headers: { 'content-type': 'application/json' }, payload: '{"check":' });
  assert.equal(bad.statusCode, 400, 'a body that is not JSON is still refused');
});
