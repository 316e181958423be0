import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeTree } from '../../helpers/tree.js';
import type { Json } from '../../../src/json.js';
import { dashboardApi } from '../../helpers/dashboard-api.js';

const NOW_MS = Date.UTC(2024, 2, 5, 9, 30);
const NOW = NOW_MS / 1000;
const DASH = '/api/checkbridge/v1';
const CHECKS = {
  checks: {
    disk: { command: 'check-disk', interval: 60, subscribers: ['web'], handlers: ['mail', 'pager'] },
    nightly: { command: 'backup', cron: '0 3 * * *', subscribers: ['db'], handler: 'mail', publish: false },
    solo: { command: 'check-solo', interval: 30, standalone: true },
  },
};

// The v2 API with the dashboard, its configuration in a directory of files, on a real store and intake.
async function dashboard(t: TestContext) {
  const api = await dashboardApi(
    t,
    { 'conf.d/client.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } }, 'conf.d/checks.json': CHECKS },
    NOW_MS,
  );
  const bearer = async (user: string, groups: string[]) => ({ authorization: await api.bearer(user, groups) });
  return { app: api.app, root: api.root, store: api.store, intake: api.intake, admin: { authorization: api.admin }, bearer };
}

test('dashboard checks: every configured check, sorted, with its schedule, handlers and where it is written', async (t) => {
  const { app, admin, root } = await dashboard(t);
  const checks = (await app.inject({ url: `${DASH}/checks`, headers: admin })).json();
  assert.deepEqual(
    checks.map((c: Json) => c.name),
    ['disk', 'nightly', 'solo'],
  );
  const [disk, nightly, solo] = checks;
  assert.deepEqual(
    { ...disk, file: disk.file === join(root, 'conf.d', 'checks.json'), line: typeof disk.line },
    {
      name: 'disk',
      command: 'check-disk',
      standalone: false,
      publish: true,
      interval: 60,
      cron: null,
      subscribers: ['web'],
      subdue: null,
      handlers: ['mail', 'pager'],
      file: true,
      line: 'number',
    },
  );
  assert.deepEqual(
    [nightly.publish, nightly.interval, nightly.cron, nightly.handlers],
    [false, null, '0 3 * * *', ['mail']],
    'a lone handler is a list of one',
  );
  assert.deepEqual([solo.standalone, solo.subscribers, solo.handlers], [true, [], []]);
});

test('dashboard checks: the line follows the file as edited, though the running settings are older', async (t) => {
  const { app, admin, root } = await dashboard(t);
  const lineOf = async () => (await app.inject({ url: `${DASH}/checks`, headers: admin })).json()[0].line as number;
  const before = await lineOf();
  writeTree(root, { 'conf.d/checks.json': '\n\n\n' + JSON.stringify(CHECKS, null, 2) });
  assert.equal(await lineOf(), before + 3);
});

test('dashboard check timeline: the next executions over the hours asked (1 to 168, 24 by default); 404 for no such check', async (t) => {
  const { app, admin } = await dashboard(t);
  const timeline = async (query: string) => (await app.inject({ url: `${DASH}/checks/disk/timeline${query}`, headers: admin })).json();
  const day = await timeline('');
  assert.deepEqual([day.from, day.to, day.executions.length], ['2024-03-05T09:30:00.000Z', '2024-03-06T09:30:00.000Z', 1440]);
  assert.equal((await timeline('?hours=2')).executions.length, 120);
  assert.equal((await timeline('?hours=0')).to, '2024-03-05T10:30:00.000Z', 'at least an hour');
  assert.equal((await timeline('?hours=999')).to, '2024-03-12T09:30:00.000Z', 'at most a week');
  assert.equal((await timeline('?hours=abc')).executions.length, 1440);
  const missing = await app.inject({ url: `${DASH}/checks/absent/timeline`, headers: admin });
  assert.deepEqual([missing.statusCode, missing.json().message], [404, 'no such check']);
  const inherited = await app.inject({ url: `${DASH}/checks/constructor/timeline`, headers: admin });
  assert.equal(inherited.statusCode, 404, 'an inherited property is no check');
});

test("dashboard check results: each client's last result of the check, output clipped, with its statuses", async (t) => {
  const { app, admin, intake } = await dashboard(t);
  await intake.submit({ client: 'web-1', check: { name: 'disk', status: 0, output: 'ok', issued: NOW - 60, executed: NOW - 60 } });
  await intake.submit({ client: 'web-1', check: { name: 'disk', status: 2, output: 'x'.repeat(2500), issued: NOW, executed: NOW } });
  await intake.submit({ client: 'web-2', check: { name: 'disk', status: 1, output: 'warn', issued: NOW, executed: NOW } });
  await intake.submit({ client: 'web-2', check: { name: 'other', status: 2, output: 'other', issued: NOW, executed: NOW } });
  const results = (await app.inject({ url: `${DASH}/checks/disk/results`, headers: admin })).json();
  assert.deepEqual(
    results.map((r: Json) => ({ ...r, output: r.output.length })),
    [
      { client: 'web-1', status: 2, output: 2000, executed: NOW, history: [0, 2] },
      { client: 'web-2', status: 1, output: 4, executed: NOW, history: [1] },
    ],
  );
});

test('dashboard check results: a caller who may read checks but not list events is refused (403)', async (t) => {
  const { app, admin, bearer, store } = await dashboard(t);
  store.resources.putUser('viewer', { username: 'viewer', groups: [] });
  const put = (url: string, payload: object) => app.inject({ method: 'PUT', url: `/api/core/v2/${url}`, headers: admin, payload });
  assert.equal(
    (await put('clusterroles/check-reader', { metadata: { name: 'check-reader' }, rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).statusCode,
    201,
  );
  const binding = { metadata: { name: 'check-reader' }, role_ref: { type: 'ClusterRole', name: 'check-reader' }, subjects: [{ type: 'User', name: 'viewer' }] };
  assert.equal((await put('clusterrolebindings/check-reader', binding)).statusCode, 201);
  const viewer = await bearer('viewer', []);
  assert.equal((await app.inject({ url: `${DASH}/checks`, headers: viewer })).statusCode, 200, 'the checks right alone reads the list');
  const refused = await app.inject({ url: `${DASH}/checks/disk/results`, headers: viewer });
  assert.equal(refused.statusCode, 403);
  assert.match(refused.json().message, /events/);
});
