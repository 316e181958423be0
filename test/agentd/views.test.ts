// A real Sensu Go 6.12 agent seen everywhere: the legacy API's events, results and history, sensuctl, the dashboard,
// and the connected count of /health and /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getJson, postJson, eventually, ADMIN_PASSWORD } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags } from '../helpers/sensu-agent.js';
import { sensuctlSkipReason, sensuctlFor, ok } from '../helpers/sensuctl.js';
import { browserSkipReason, launchBrowser, ARTIFACTS } from '../helpers/browser.js';

const skip = agentSkipReason();
const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 1 } } };
import type { Json } from '../../src/json.js';

const postToAgent = (port: number, check: Json) =>
  fetch(`http://127.0.0.1:${port}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ check }) });

test(
  "an agent's check events are in the legacy API: /events, /events/:client(/:check), /results, history; resolve runs its handler",
  { skip, timeout: 120_000 },
  async (t) => {
    const { v2, api, root, agentd } = await agentInstanceFor(t, HOST);
    const auth = `Bearer ${await adminToken(v2)}`;
    const out = join(root, 'handled.jsonl');
    assert.equal(
      (await call(`${v2}/api/core/v2/namespaces/default/handlers/record`, 'PUT', auth, { type: 'pipe', command: `cat >> ${out}; echo >> ${out}` })).status,
      201,
    );
    const agent = await startAgent(t, agentd, 'view-1', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    assert.equal(
      (await postToAgent(agent.apiPort, { metadata: { name: 'disk' }, status: 2, output: 'disk full', interval: 60, handlers: ['record'] })).status,
      202,
    );
    assert.equal(await tcpExchange(agent.socketPort, JSON.stringify({ name: 'load', status: 1, output: 'load high', handlers: ['record'] })), 'ok');
    assert.equal(await tcpExchange(agent.socketPort, JSON.stringify({ name: 'fine', status: 0, output: 'all good' })), 'ok');
    const v2Url = (check: string) => `${v2}/api/core/v2/namespaces/default/events/view-1/${check}`;
    for (const check of ['disk', 'load', 'fine'])
      assert.equal(
        (
          await eventually(
            () => call(v2Url(check), 'GET', auth),
            (r) => r.status === 200,
          )
        ).status,
        200,
        check,
      );

    const one = await getJson(`${api}/events/view-1/disk`);
    assert.equal(one.status, 200, "the legacy API shows the agent's event");
    const event = one.body as Json;
    assert.equal(event.client.name, 'view-1');
    assert.equal(event.client.entity_class, 'agent');
    assert.equal(event.client.version, '6.12.0');
    assert.equal(event.check.name, 'disk');
    assert.equal(event.check.status, 2);
    assert.equal(event.check.output, 'disk full');
    assert.equal(event.check.interval, 60);
    assert.deepEqual(event.check.handlers, ['record']);
    assert.deepEqual(event.check.history, ['2'], 'statuses as legacy history');
    assert.equal(typeof event.check.executed, 'number');
    assert.equal(typeof event.check.issued, 'number');
    assert.equal(event.action, 'create');
    assert.equal(event.occurrences, 1);
    assert.equal(event.id, ((await call(v2Url('disk'), 'GET', auth)).body as Json).id, 'one event, two views');

    const mine = ((await getJson(`${api}/events/view-1`)).body as Json[]).map((e) => e.check.name);
    assert.deepEqual(mine, ['disk', 'load'], 'open events only, in check order: an OK check is no legacy event');
    const all = (await getJson(`${api}/events`)).body as Json[];
    assert.deepEqual(
      all.filter((e) => e.client.name === 'view-1').map((e) => e.check.name),
      ['disk', 'load'],
    );
    assert.equal((await getJson(`${api}/events/view-1/fine`)).status, 404);
    const paged = await getJson(`${api}/events?filter.client.name=view-1&limit=1`);
    assert.deepEqual([(paged.body as Json[]).length, JSON.parse(paged.headers.get('x-pagination')!).total], [1, 2], 'filters and pages see them');

    const results = (
      await eventually(
        () => getJson(`${api}/results/view-1`),
        (r) => (r.body as Json[]).some((e) => e.check.name === 'keepalive'),
      )
    ).body as Json[];
    assert.deepEqual(
      results.map((r) => r.check.name),
      ['disk', 'fine', 'keepalive', 'load'],
      'in check order; the keepalive once (the legacy record, not its v2 mirror too)',
    );
    assert.equal((await getJson(`${api}/results/view-1/fine`)).body.check.output, 'all good');
    const history = (await getJson(`${api}/clients/view-1/history`)).body as Json[];
    const fine = history.find((h) => h.check === 'fine');
    assert.deepEqual([fine?.history, fine?.last_status, fine?.last_result.output], [[0], 0, 'all good'], 'one history per entity and check');
    assert.deepEqual(
      history.map((h) => h.check),
      ['disk', 'fine', 'keepalive', 'load'],
    );

    // Resolve, by each of the legacy API's two ways: an OK of the check enters the one intake and its handler runs.
    assert.equal((await call(`${api}/events/view-1/disk`, 'DELETE', null)).status, 202);
    assert.equal((await postJson(`${api}/resolve`, { client: 'view-1', check: 'load' })).status, 202);
    for (const check of ['disk', 'load']) {
      const resolved = await eventually(
        () => call(v2Url(check), 'GET', auth),
        (r) => r.body?.check?.status === 0,
      );
      assert.equal(resolved.body.check.output, 'Resolving on request of the API', check);
      assert.deepEqual(
        resolved.body.check.history.map((h: Json) => h.status),
        [check === 'disk' ? 2 : 1, 0],
        'the history keeps its statuses',
      );
      assert.equal((await getJson(`${api}/events/view-1/${check}`)).status, 404, `${check} is no longer an open event`);
    }
    assert.equal((await call(`${api}/events/view-1/disk`, 'DELETE', null)).status, 404, 'nothing left to resolve');
    const handled = await eventually(
      async () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
      (text) => (text.match(/Resolving on request of the API/g) ?? []).length >= 2,
    );
    assert.equal((handled.match(/Resolving on request of the API/g) ?? []).length, 2, 'each resolution was handled');

    const refused = await call(`${api}/results/view-1/disk`, 'DELETE', null);
    assert.equal(refused.status, 409, "an agent's result is its v2 event: the legacy API does not half-delete it");
    assert.match(String(refused.headers.get('x-checkbridge-error')), /DELETE \/api\/core\/v2\/namespaces\/default\/events\/view-1\/disk/);

    // Deleting the client resolves its open events first, the agent's check events as its legacy ones.
    assert.equal((await postToAgent(agent.apiPort, { metadata: { name: 'cpu' }, status: 2, output: 'cpu hot', interval: 60 })).status, 202);
    assert.equal(
      (
        await eventually(
          () => getJson(`${api}/events/view-1/cpu`),
          (r) => r.status === 200,
        )
      ).status,
      200,
    );
    assert.equal((await call(`${api}/clients/view-1`, 'DELETE', null)).status, 202);
    const cpu = await eventually(
      () => call(v2Url('cpu'), 'GET', auth),
      (r) => r.body?.check?.status === 0,
    );
    assert.deepEqual([cpu.body.check.status, cpu.body.check.output], [0, 'Resolving on request of the API']);
  },
);

test(
  'sensuctl entity list and event list show a real agent: entity_class agent, its subscriptions, system facts and check event',
  { skip: skip || sensuctlSkipReason(), timeout: 120_000 },
  async (t) => {
    const { v2, agentd } = await agentInstanceFor(t, HOST);
    const agent = await startAgent(t, agentd, 'ctl-1', [...agentFlags(), '--subscriptions', 'linux,web']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    assert.equal((await postToAgent(agent.apiPort, { metadata: { name: 'disk' }, status: 1, output: 'disk filling', interval: 60 })).status, 202);
    const auth = `Bearer ${await adminToken(v2)}`;
    assert.equal(
      (
        await eventually(
          () => call(`${v2}/api/core/v2/namespaces/default/events/ctl-1/disk`, 'GET', auth),
          (r) => r.status === 200,
        )
      ).status,
      200,
    );
    const sensuctl = sensuctlFor(t);
    ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');

    const entities = JSON.parse(ok(sensuctl, 'entity', 'list', '--format', 'json')) as Json[];
    const entity = entities.find((e) => e.metadata?.name === 'ctl-1');
    assert.ok(entity, `sensuctl lists the agent: ${JSON.stringify(entities.map((e) => e.metadata?.name))}`);
    assert.equal(entity.entity_class, 'agent');
    assert.deepEqual([...entity.subscriptions].sort(), ['entity:ctl-1', 'linux', 'web']);
    assert.equal(entity.sensu_agent_version, '6.12.0');
    assert.equal(entity.system.os, 'linux');
    assert.equal(typeof entity.system.hostname, 'string');
    assert.ok(entity.system.hostname.length > 0 && typeof entity.system.arch === 'string' && entity.system.arch.length > 0, JSON.stringify(entity.system));
    assert.ok(entity.last_seen > 0);
    const plain = (...args: string[]) => ok(sensuctl, ...args).replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(plain('entity', 'list'), /ctl-1\s+agent\s+linux\s+linux,web,entity:ctl-1/, 'the tabular list names its class, OS and subscriptions');

    const events = JSON.parse(ok(sensuctl, 'event', 'list', '--format', 'json')) as Json[];
    const event = events.find((e) => e.entity?.metadata?.name === 'ctl-1' && e.check?.metadata?.name === 'disk');
    assert.ok(event, `sensuctl lists the agent's event: ${JSON.stringify(events.map((e) => `${e.entity?.metadata?.name}/${e.check?.metadata?.name}`))}`);
    assert.deepEqual([event.check.status, event.check.output, event.entity.entity_class], [1, 'disk filling', 'agent']);
    assert.match(plain('event', 'list'), /ctl-1\s+disk\s+disk filling/);
  },
);

test('/health and /metrics count connected agents: 1 while a real agent is connected, 0 once it is killed', { skip, timeout: 120_000 }, async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const counts = async () => {
    const health = (await getJson(`${v2}/health`)).body as Json;
    const metrics = String((await getJson(`${v2}/metrics`)).body);
    return `${health.Annotations['checkbridge.agents.connected']} ${/^checkbridge_agents_connected (\d+)$/m.exec(metrics)?.[1]}`;
  };
  assert.equal(await counts(), '0 0');
  const agent = await startAgent(t, agentd, 'counted-1', agentFlags());
  await agent.waitFor((l) => l.msg === 'successfully connected');
  assert.equal(await eventually(counts, (c) => c === '1 1'), '1 1');
  await agent.stop('SIGKILL');
  assert.equal(await eventually(counts, (c) => c === '0 0'), '0 0', 'a killed agent is no longer counted');
});

test(
  'dashboard: the Clients page shows an agent with its class, version, connected or not, and last keepalive',
  { skip: skip || browserSkipReason(), timeout: 120_000 },
  async (t) => {
    const { v2, agentd } = await agentInstanceFor(t, HOST);
    const agent = await startAgent(t, agentd, 'dash-agent', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    const browser = await launchBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.goto(`${v2}/`);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.goto(`${v2}/#/clients`);
    const row = page.locator('tr[data-client="dash-agent"]');
    await row.filter({ hasText: 'Sensu Go agent, connected' }).waitFor();
    const cells = await row.locator('td').allInnerTexts();
    assert.equal(cells[1], 'Sensu Go agent, connected');
    assert.equal(cells[4], '6.12.0', 'its version');
    assert.match(cells[3]!, /^\d+s ago$/, 'its last keepalive');
    assert.match(cells[5]!, /linux/);
    await page.screenshot({ path: join(ARTIFACTS, 'clients-agent.png'), fullPage: true });
    await agent.stop('SIGKILL');
    await row.filter({ hasText: 'Sensu Go agent, not connected' }).waitFor({ timeout: 20_000 });
  },
);

test('dashboard events: a lost agent of another namespace shows its keepalive once, in its own namespace', { skip, timeout: 120_000 }, async (t) => {
  const { v2, api, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/namespaces/prod`, 'PUT', auth, { name: 'prod' })).status, 201);
  const agent = await startAgent(t, agentd, 'prod-1', [...agentFlags(), '--namespace', 'prod']);
  // Watched once its first keepalive registered it.
  assert.equal(
    (
      await eventually(
        () => call(`${v2}/api/core/v2/namespaces/prod/entities/prod-1`, 'GET', auth),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
  assert.equal((await postToAgent(agent.apiPort, { metadata: { name: 'disk' }, status: 2, output: 'prod disk full', interval: 60 })).status, 202);
  const disk = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/prod/events/prod-1/disk`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(disk.body.check.output, 'prod disk full');
  await agent.stop('SIGKILL');
  const keepalives = async () =>
    (((await call(`${v2}/api/checkbridge/v1/events?client=prod-1&limit=500`, 'GET', auth)).body as Json).items as Json[]).filter(
      (row) => row.check === 'keepalive',
    );
  const rows = await eventually(keepalives, (found) => found.some((row) => row.status === 1), 30_000);
  assert.deepEqual(
    rows.map((row) => [row.namespace, row.status, row.source]),
    [['prod', 1, 'legacy']],
    "one keepalive, in the agent's namespace (its v2 copy is the mirror)",
  );
  // The legacy API is checkbridge.namespace's: an agent of prod is not in it (checkbridge.legacy_api_all_namespaces).
  assert.deepEqual((await getJson(`${api}/events/prod-1`)).body, []);
});
