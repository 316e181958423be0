import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { instanceFor, getJson, adminBasic, eventually } from '../../helpers/instance.js';
import { tcpExchange } from '../../helpers/net.js';
import { buildV2Api, type V2ApiDeps } from '../../../src/api/v2/server.js';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { TokenIssuer, newSigningKey } from '../../../src/auth/tokens.js';
import { loadSettings } from '../../../src/config/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { systemClock } from '../../../src/schedule/clock.js';
import { spawnCommand } from '../../../src/execute/spawn.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

const client = { name: 'dash-api', address: '127.0.0.1', subscriptions: ['web'] };
const DASH = '/api/checkbridge/v1';

async function tokenFor(v2: string): Promise<Record<string, string>> {
  const { body } = await getJson(`${v2}/auth`, { headers: adminBasic });
  return { authorization: `Bearer ${body.access_token}` };
}

test('dashboard: the page is public, its data needs a login, the legacy settings stay out of reach', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const page = await fetch(`${v2}/`);
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(script, 'the page loads a bundled script');
  const bundle = await fetch(`${v2}${script}`);
  assert.equal(bundle.status, 200);
  assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
  assert.equal((await fetch(`${v2}/assets/missing.js`)).status, 404);

  for (const path of ['/events', '/checks', '/config/diagnostics', '/migration', '/stream', '/legacy/events']) {
    assert.equal((await fetch(`${v2}${DASH}${path}`)).status, 401, `${path} without a token`);
  }
  const auth = await tokenFor(v2);
  assert.equal((await getJson(`${v2}${DASH}/events`, { headers: auth })).status, 200);
  assert.equal((await getJson(`${v2}${DASH}/legacy/settings`, { headers: auth })).status, 404);
  assert.equal((await getJson(`${v2}${DASH}/legacy/clients/dash-api`, { headers: auth })).body.name, 'dash-api');
});

test('dashboard: 10,000 events are filtered, sorted and paged on the server', async (t) => {
  const { v2, socket } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const results = Array.from({ length: 10_000 }, (_, i) => ({
    name: `check-${String(i).padStart(5, '0')}`,
    output: i % 10 === 0 ? 'CRITICAL disk full' : 'WARNING slow',
    status: i % 10 === 0 ? 2 : 1,
  }));
  for (let i = 0; i < results.length; i += 1000) await tcpExchange(socket, JSON.stringify(results.slice(i, i + 1000)));
  const auth = await tokenFor(v2);
  const all = await eventually(
    () => getJson(`${v2}${DASH}/events?limit=50`, { headers: auth }),
    (r) => r.body?.total === 10_000,
    120_000,
  );
  assert.equal(all.body.total, 10_000);
  assert.equal(all.body.items.length, 50);
  assert.deepEqual(all.body.counts, { 0: 0, 1: 9000, 2: 1000, 3: 0 });
  // Critical first by default.
  assert.equal(all.body.items[0].status, 2);

  const critical = await getJson(`${v2}${DASH}/events?status=2&sort=check&order=asc&offset=100&limit=10`, { headers: auth });
  assert.equal(critical.body.total, 1000);
  assert.deepEqual(
    critical.body.items.map((e: { check: string }) => e.check),
    Array.from({ length: 10 }, (_, i) => `check-${String((100 + i) * 10).padStart(5, '0')}`),
  );
  const oneCheck = await getJson(`${v2}${DASH}/events?check=check-04242`, { headers: auth });
  assert.deepEqual(
    oneCheck.body.items.map((e: { client: string; check: string; status: number; history: number[] }) => [e.client, e.check, e.status, e.history]),
    [['dash-api', 'check-04242', 1, [1]]],
  );
  assert.equal((await getJson(`${v2}${DASH}/events?subscription=web&q=disk+full`, { headers: auth })).body.total, 1000);
  assert.equal((await getJson(`${v2}${DASH}/events?subscription=nobody`, { headers: auth })).body.total, 0);
  // A page is capped, whatever the caller asks.
  assert.equal((await getJson(`${v2}${DASH}/events?limit=9999`, { headers: auth })).body.items.length, 500);
  // Sorted by time: a full page (speed is the bench's to measure, not a threshold here).
  const newest = await getJson(`${v2}${DASH}/events?limit=50&sort=timestamp`, { headers: auth });
  assert.equal(newest.body.items.length, 50);
});

// In process: the dashboard as registerDashboard wires it into the v2 API, on a real store and intake.
async function inProcess(t: TestContext) {
  const root = makeTree({ 'conf.d/client.json': { client, checkbridge: { namespace: 'ops' } } });
  t.after(() => removeTree(root));
  const sources = { configFile: null, configDirs: [join(root, 'conf.d')] };
  const settings = loadSettings(sources, {}).settings!;
  const store = sqliteStore(t);
  const { logger } = capturedLogger();
  const intake = new Intake(store, () => settings, systemClock, logger);
  const legacy = buildLegacyApi({ store, settings: () => settings, intake, logger, clock: systemClock, requestCheck: () => true });
  const deps: V2ApiDeps = {
    store,
    intake,
    tokens: new TokenIssuer(newSigningKey()),
    logger,
    clock: systemClock,
    spawn: spawnCommand,
    dashboard: { legacy, settings: () => settings, sources, bridge: null, onEvent: (listener) => intake.topics.committed.subscribe(listener), webRoot: root },
  };
  const app = buildV2Api(deps);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => Promise.all([app.close(), legacy.close()]));
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const auth = { authorization: `Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}` };
  return { base, auth, intake };
}

// The timeout bounds the wait for a change that never comes, should the wiring break.
test('dashboard in process: a committed event reaches open pages as a change, and is listed in checkbridge.namespace', { timeout: 30_000 }, async (t) => {
  const { base, auth, intake } = await inProcess(t);
  const stream = await fetch(`${base}${DASH}/stream`, { headers: auth });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('event: hello')) text += (await reader.read()).value ?? '';
  const now = Math.floor(Date.now() / 1000);
  await intake.submit({ client: 'dash-api', check: { name: 'disk', status: 2, output: 'full', issued: now, executed: now } });
  while (!text.includes('event: change')) text += (await reader.read()).value ?? '';
  await reader.cancel();
  assert.match(text, /event: change\ndata: \{"generation":1\}/);
  const events = (await getJson(`${base}${DASH}/events`, { headers: auth })).body;
  assert.deepEqual(
    events.items.map((e: { namespace: string; client: string; check: string }) => `${e.namespace}/${e.client}/${e.check}`),
    ['ops/dash-api/disk'],
  );
  // Without a built page in the web root given, / says so rather than failing.
  assert.equal((await fetch(`${base}/`)).status, 404);
});
