import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildLegacyApi, type LegacyApiDeps } from '../../../src/api/legacy/server.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';

const NOW_MS = 1_700_000_000_000;
const SECRET = 'broker-S3CRET';
const API = { user: 'ops', password: 'api-pw' };
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

// The legacy API over a real store and intake; `extra` adds the daemon's optional parts (transport, servers, bridge).
function legacyApi(t: TestContext, config: Record<string, unknown> = {}, extra: Partial<LegacyApiDeps> = {}, store = sqliteStore(t)) {
  const settings = settingsOf({
    client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] },
    rabbitmq: { host: '127.0.0.1', password: SECRET },
    ...config,
  });
  const clock = new ManualClock(NOW_MS);
  const { logger } = capturedLogger();
  const app = buildLegacyApi({
    store,
    settings: () => settings,
    intake: new Intake(store, () => settings, clock, logger),
    logger,
    clock,
    requestCheck: () => false,
    ...extra,
  });
  t.after(() => app.close());
  return { app, store };
}

test('GET /info: the legacy version, the in-process transport by default, no servers and no bridge', async (t) => {
  const { app } = legacyApi(t);
  assert.deepEqual((await app.inject('/info')).json(), {
    sensu: { version: '1.9.0' },
    transport: { name: 'in-process', connected: true },
    redis: { connected: true },
    servers: [],
    bridge: null,
  });
  assert.equal((await app.inject('/bridge')).statusCode, 404, 'no bridge configured');
  assert.deepEqual((await app.inject('/bridge/dead_letters')).json(), []);
});

test("GET /info, /bridge and /bridge/dead_letters show the bridge's outbox and its dead letters", async (t) => {
  const store = sqliteStore(t);
  store.outbox.add('default', 'web-1', 'disk', JSON.stringify({ check: { status: 2 } }), NOW_MS - 30_000);
  const seq = store.outbox.add('default', 'web-2', 'cpu', JSON.stringify({ check: { status: 1 } }), NOW_MS - 10_000);
  store.outbox.deadLetter(
    { seq, namespace: 'default', entity: 'web-2', check: 'cpu', body: JSON.stringify({ check: { status: 1 } }), enqueuedAt: NOW_MS - 10_000 },
    400,
    'bad event',
    NOW_MS,
  );
  const bridge = { status: () => 'delivering', outbox: store.outbox };
  const servers = [{ name: 'server-1', tasks: ['check_request'] }];
  const transport = async () => ({ name: 'rabbitmq', connected: true, keepalives: { consumers: 1, messages: 0 }, results: { consumers: 1, messages: 3 } });
  const { app } = legacyApi(t, {}, { bridge, servers: async () => servers, transport }, store);
  const summary = { status: 'delivering', depth: 1, oldest_age_s: 30, delivered: 0, dead_lettered: 1 };
  const info = (await app.inject('/info')).json();
  assert.deepEqual([info.bridge, info.servers, info.transport.name, info.transport.results.messages], [summary, servers, 'rabbitmq', 3]);
  assert.deepEqual((await app.inject('/bridge')).json(), summary);
  assert.deepEqual((await app.inject('/bridge/dead_letters')).json(), [
    { seq, namespace: 'default', entity: 'web-2', check: 'cpu', status: 400, message: 'bad event', failed_at: NOW_MS, event: { check: { status: 1 } } },
  ]);
});

test('GET /health: 204 while the transport holds the bounds asked, 412 with the failures otherwise', async (t) => {
  let connected = true;
  const { app } = legacyApi(
    t,
    {},
    { transport: async () => ({ name: 'rabbitmq', connected, keepalives: { consumers: 1, messages: 0 }, results: { consumers: 2, messages: 7 } }) },
  );
  const ok = await app.inject('/health?consumers=1&messages=7');
  assert.deepEqual([ok.statusCode, ok.payload], [204, '']);
  const failing = await app.inject('/health?consumers=2&messages=5');
  assert.deepEqual(
    [failing.statusCode, failing.json()],
    [412, ['keepalive consumers (1) less than min_consumers (2)', 'result messages (7) greater than max_messages (5)']],
  );
  connected = false;
  assert.deepEqual((await app.inject('/health')).json(), ['not connected to transport']);
});

test('GET /settings is redacted; ?redacted=false is 403 without api credentials configured', async (t) => {
  const { app } = legacyApi(t);
  const redacted = await app.inject('/settings');
  assert.equal(redacted.json().rabbitmq.password, 'REDACTED');
  assert.doesNotMatch(redacted.payload, new RegExp(SECRET));
  const whole = await app.inject('/settings?redacted=false');
  assert.deepEqual(
    [whole.statusCode, whole.payload, whole.headers['x-checkbridge-error']],
    [403, '', 'redacted=false needs api.user and api.password set and sent as basic auth'],
  );
});

test('GET /settings?redacted=false answers the whole settings to the authenticated caller', async (t) => {
  const { app } = legacyApi(t, { api: API });
  const whole = await app.inject({ url: '/settings?redacted=FALSE', headers: basic(API.user, API.password) });
  assert.equal(whole.statusCode, 200);
  assert.deepEqual([whole.json().rabbitmq.password, whole.json().api.password], [SECRET, API.password]);
  assert.equal((await app.inject({ url: '/settings', headers: basic(API.user, API.password) })).json().rabbitmq.password, 'REDACTED');
  assert.equal((await app.inject('/settings?redacted=false')).statusCode, 401);
});
