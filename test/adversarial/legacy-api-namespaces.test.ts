// The legacy API is the legacy world's: it shows checkbridge.namespace's agents only. An agent of another namespace is
// neither read nor resolved through it, unless the instance says so and the caller authenticates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson, postJson, startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD } from '../helpers/sensu-agent.js';

import type { Json } from '../../src/json.js';
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
const CLIENT = { name: 'cb-host', address: '127.0.0.1', subscriptions: [] };

async function withAgents(t: { after(fn: () => Promise<void> | void): void }, checkbridge: Json, api?: Json) {
  const root = makeTree({ 'conf.d/config.json': { client: CLIENT, checkbridge, ...(api ? { api } : {}) } });
  const instance = await startInstance(root, [], { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const agentd = `ws://${(await instance.daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address}`;
  const auth = `Bearer ${await adminToken(instance.v2)}`;
  assert.equal((await call(`${instance.v2}/api/core/v2/namespaces/team-b`, 'PUT', auth, { name: 'team-b' })).status, 201);
  // One failing agent in each namespace: its keepalive (a legacy result) and a check event.
  for (const [name, namespace] of [
    ['d-1', 'default'],
    ['b-1', 'team-b'],
  ]) {
    const headers = {
      'Sensu-AgentName': name,
      'Sensu-Namespace': namespace,
      'Sensu-User': 'agent',
      'Sensu-Subscriptions': 'linux',
      authorization: basic('agent', AGENT_PASSWORD),
    };
    const ws = new WebSocket(agentd, { headers });
    t.after(() => ws.close());
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(Buffer.from(`keepalive\n${JSON.stringify({ entity: { metadata: { name } }, check: { timeout: 120, ttl: 0 } })}`));
    const now = Math.floor(Date.now() / 1000);
    ws.send(
      Buffer.from(
        `event\n${JSON.stringify({ check: { metadata: { name: 'disk' }, status: 2, output: `${namespace} secret`, interval: 60, executed: now, issued: now } })}`,
      ),
    );
    const url = `${instance.v2}/api/core/v2/namespaces/${namespace}/events/${name}/disk`;
    await eventually(
      () => call(url, 'GET', auth),
      (r) => r.status === 200,
    );
  }
  return { ...instance, auth };
}

const names = (list: Json[], key: (item: Json) => unknown) => list.map(key).map(String);

test('legacy API: an agent of another namespace is in no legacy view, and no legacy call resolves its event', async (t) => {
  const { api, v2, auth } = await withAgents(t, {});
  const events = (await getJson(`${api}/events`)).body as Json[];
  assert.ok(names(events, (e) => e.client.name).includes('d-1'), "checkbridge.namespace's agent is shown");
  assert.ok(!names(events, (e) => e.client.name).includes('b-1'), 'team-b is not');
  assert.ok(!names((await getJson(`${api}/incidents`)).body, (e) => e.client.name).includes('b-1'));
  assert.deepEqual((await getJson(`${api}/events/b-1`)).body, []);
  assert.equal((await getJson(`${api}/events/b-1/disk`)).status, 404);
  const results = (await getJson(`${api}/results`)).body as Json[];
  assert.ok(names(results, (r) => r.client).includes('d-1'));
  assert.ok(!names(results, (r) => r.client).includes('b-1'), 'nor its results, its keepalive included');
  assert.deepEqual((await getJson(`${api}/results/b-1`)).body, []);
  assert.equal((await getJson(`${api}/results/b-1/disk`)).status, 404);
  assert.equal((await getJson(`${api}/results/b-1/keepalive`)).status, 404);
  assert.equal((await call(`${api}/results/b-1/keepalive`, 'DELETE', null)).status, 404);
  const clients = (await getJson(`${api}/clients`)).body as Json[];
  assert.ok(names(clients, (c) => c.name).includes('d-1'));
  assert.ok(!names(clients, (c) => c.name).includes('b-1'), 'nor its client record');
  assert.equal((await getJson(`${api}/clients/b-1`)).status, 404);
  assert.deepEqual((await getJson(`${api}/clients/b-1/history`)).body, []);
  assert.equal((await call(`${api}/events/b-1/disk`, 'DELETE', null)).status, 404, 'not resolved');
  assert.equal((await postJson(`${api}/resolve`, { client: 'b-1', check: 'disk' })).status, 404);
  assert.equal((await call(`${api}/clients/b-1`, 'DELETE', null)).status, 404, 'not deleted');
  const kept = await call(`${v2}/api/core/v2/namespaces/team-b/events/b-1/disk`, 'GET', auth);
  assert.deepEqual([kept.body.check.status, kept.body.check.output], [2, 'team-b secret']);
  assert.equal((await getJson(`${api}/events/d-1/disk`)).body.check.output, 'default secret');
});

test('legacy API: legacy_api_all_namespaces shows every namespace, to an authenticated caller only', async (t) => {
  const credentials = { user: 'ops', password: 'legacy-pass' };
  const { api } = await withAgents(t, { legacy_api_all_namespaces: true }, credentials);
  const headers = { authorization: basic(credentials.user, credentials.password) };
  assert.equal((await getJson(`${api}/events/b-1/disk`)).status, 401);
  const one = await getJson(`${api}/events/b-1/disk`, { headers });
  assert.deepEqual([one.status, one.body.check.output], [200, 'team-b secret']);
  assert.ok(names((await getJson(`${api}/clients`, { headers })).body, (c) => c.name).includes('b-1'));
});

test('legacy API: legacy_api_all_namespaces without api credentials shows checkbridge.namespace only', async (t) => {
  const { api } = await withAgents(t, { legacy_api_all_namespaces: true });
  assert.equal((await getJson(`${api}/events/b-1/disk`)).status, 404);
  assert.equal((await getJson(`${api}/events/d-1/disk`)).status, 200);
});

test("legacy doors: no legacy call writes into another namespace's agent, nor replaces any agent's client record", async (t) => {
  const { api, v2, auth, socket } = await withAgents(t, {});
  const injected = await postJson(`${api}/results`, { name: 'pwn', source: 'b-1', status: 2, output: 'injected' });
  assert.equal(injected.status, 400);
  assert.match(injected.headers.get('x-checkbridge-error') ?? '', /b-1.*Sensu Go agent of another namespace/);
  assert.equal((await tcpExchange(socket, JSON.stringify({ name: 'pwn-socket', source: 'b-1', status: 2, output: 'injected' }))).trim(), 'invalid');
  for (const check of ['pwn', 'pwn-socket'])
    assert.equal((await call(`${v2}/api/core/v2/namespaces/team-b/events/b-1/${check}`, 'GET', auth)).status, 404, check);
  // checkbridge.namespace's agent keeps taking legacy results naming it, as before.
  assert.equal((await postJson(`${api}/results`, { name: 'legacy-view', source: 'd-1', status: 1, output: 'ok here' })).status, 202);
  for (const name of ['b-1', 'd-1']) {
    const replaced = await postJson(`${api}/clients`, { name, address: 'evil', subscriptions: [] });
    assert.equal(replaced.status, 409, name);
    assert.match(replaced.headers.get('x-checkbridge-error') ?? '', /Sensu Go agent's client record/);
  }
  assert.equal((await getJson(`${api}/clients/b-1`)).status, 404, 'still hidden, not a legacy client now');
  assert.notEqual((await getJson(`${api}/clients/d-1`)).body.address, 'evil');
});
