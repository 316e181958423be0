import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildV2Api, type V2ApiDeps } from '../../../src/api/v2/server.js';
import { buildLegacyApi } from '../../../src/api/legacy/server.js';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { TokenIssuer, newSigningKey } from '../../../src/auth/tokens.js';
import { loadSettings } from '../../../src/config/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { spawnCommand } from '../../../src/execute/spawn.js';
import { CheckRequestTargets, V2CheckScheduler, type V2CheckRequest } from '../../../src/scheduling/index.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import type { Json } from '../../../src/json.js';

const NOW_MS = Date.UTC(2024, 2, 5, 9, 30);
const DASH = '/api/checkbridge/v1';

const checkConfig = (namespace: string, name: string, spec: Json) => ({ metadata: { name, namespace }, command: `run-${name}`, ...spec });

// The v2 API with the dashboard over a real store; with `scheduling`, a real v2 check scheduler whose requests are kept.
async function dashboard(t: TestContext, scheduling: boolean) {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } });
  t.after(() => removeTree(root));
  const sources = { configFile: null, configDirs: [join(root, 'conf.d')] };
  const settings = loadSettings(sources, {}).settings!;
  const store = sqliteStore(t);
  const clock = new ManualClock(NOW_MS);
  const capture = capturedLogger();
  const intake = new Intake(store, () => settings, clock, capture.logger);
  store.resources.putResource(
    'CheckConfig',
    'default',
    'cpu',
    checkConfig('default', 'cpu', { interval: 60, publish: true, subscriptions: ['linux'], handlers: ['mail'] }),
  );
  store.resources.putResource(
    'CheckConfig',
    'default',
    'adhoc',
    checkConfig('default', 'adhoc', { interval: 60, publish: false, round_robin: true, proxy_requests: { entity_attributes: [] } }),
  );
  store.resources.putResource('CheckConfig', 'team-b', 'mem', checkConfig('team-b', 'mem', { cron: '0 * * * *', publish: true, subscriptions: ['db'] }));
  const sent: V2CheckRequest[] = [];
  let v2Checks: V2CheckScheduler | undefined;
  if (scheduling) {
    const targets = new CheckRequestTargets();
    targets.register({ kind: 'recorded', members: () => [], broadcast: (_ns, _sub, request) => void sent.push(request), send: () => undefined });
    v2Checks = new V2CheckScheduler({ clock, resources: store.resources, targets, logger: capture.logger });
    v2Checks.start(3_600_000);
    t.after(() => v2Checks!.stop());
  }
  const legacy = buildLegacyApi({ store, settings: () => settings, intake, logger: capture.logger, clock, requestCheck: () => true });
  const deps: V2ApiDeps = {
    store,
    intake,
    tokens: new TokenIssuer(newSigningKey()),
    logger: capture.logger,
    clock,
    spawn: spawnCommand,
    dashboard: { legacy, settings: () => settings, sources, bridge: null, onEvent: () => undefined, webRoot: root, ...(v2Checks ? { v2Checks } : {}) },
  };
  const app = buildV2Api(deps);
  t.after(() => Promise.all([app.close(), legacy.close()]));
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const authorization = `Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`;
  const call = (method: 'GET' | 'POST', url: string) => app.inject({ method, url: `${DASH}${url}`, headers: { authorization } });
  return { call, sent, capture };
}

test("v2 checks: a namespace's CheckConfigs as the dashboard lists them, with the next scheduled request", async (t) => {
  const { call } = await dashboard(t, true);
  const checks = (await call('GET', '/namespaces/default/checks')).json();
  assert.deepEqual(
    checks.map((c: Json) => c.name),
    ['adhoc', 'cpu'],
  );
  const [adhoc, cpu] = checks;
  assert.deepEqual(
    { ...cpu, next_execution: typeof cpu.next_execution },
    {
      name: 'cpu',
      namespace: 'default',
      command: 'run-cpu',
      publish: true,
      interval: 60,
      cron: null,
      subscriptions: ['linux'],
      round_robin: false,
      proxy: false,
      handlers: ['mail'],
      next_execution: 'number',
    },
  );
  assert.ok(cpu.next_execution >= NOW_MS && cpu.next_execution < NOW_MS + 60_000, String(cpu.next_execution));
  assert.deepEqual(
    [adhoc.publish, adhoc.round_robin, adhoc.proxy, adhoc.subscriptions, adhoc.handlers, adhoc.next_execution],
    [false, true, true, [], [], null],
  );
  const other = (await call('GET', '/namespaces/team-b/checks')).json();
  assert.deepEqual([other[0].name, other[0].cron, typeof other[0].next_execution], ['mem', '0 * * * *', 'number'], "another namespace's own schedule");
  assert.deepEqual((await call('GET', '/namespaces/empty/checks')).json(), []);
});

test('v2 checks: Run now sends an ad hoc request (202 issued), named as from the dashboard and its caller', async (t) => {
  const { call, sent, capture } = await dashboard(t, true);
  const answer = await call('POST', '/namespaces/default/checks/cpu/execute');
  assert.deepEqual([answer.statusCode, answer.json()], [202, { issued: NOW_MS / 1000 }]);
  assert.deepEqual(
    sent.map((r) => [r.config.metadata?.name, r.issued]),
    [['cpu', NOW_MS / 1000]],
  );
  const logged = capture.lines.find((l) => l.msg === 'ad hoc check request');
  assert.deepEqual([logged?.reason, logged?.creator], ['requested from the dashboard', 'admin']);
  const missing = await call('POST', '/namespaces/default/checks/absent/execute');
  assert.deepEqual([missing.statusCode, missing.json().message], [404, 'check "absent" not found in namespace "default"']);
});

test('v2 checks without scheduling here: no next request, and Run now is 404 saying why', async (t) => {
  const { call } = await dashboard(t, false);
  const checks = (await call('GET', '/namespaces/default/checks')).json();
  assert.deepEqual(
    checks.map((c: Json) => c.next_execution),
    [null, null],
  );
  const answer = await call('POST', '/namespaces/default/checks/cpu/execute');
  assert.deepEqual([answer.statusCode, answer.json().message], [404, 'v2 check scheduling is not running here']);
});
