// A hostile agent's events of conf.d checks: marked as one, it writes only its own client's result unless the check
// itself names another client (a proxy check: only a proxy client its request matched); a bad one is refused with the reason; an unknown check stays a v2 event. No real agent
// is needed: the test speaks the agent WebSocket itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson, postJson, startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
const CONF_D = { 'checkbridge.io/conf.d': 'true' };

test('a forged conf.d result names no other client, a malformed one is refused, an unknown check stays a v2 event', async (t) => {
  const root = makeTree({
    'conf.d/config.json': {
      client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] },
      checks: {
        disk: { command: 'true', subscribers: ['nobody'], interval: 60, handlers: [] },
        ping: { command: 'true', subscribers: ['nobody'], interval: 60, handlers: [], proxy_requests: { client_attributes: { keepalives: false } } },
      },
    },
  });
  const { api, v2, daemon } = await startInstance(root, [], { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD });
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const agentd = `ws://${(await daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address}`;
  assert.equal((await postJson(`${api}/clients`, { name: 'db-1', address: '10.0.0.5', subscriptions: [] })).status, 201);
  assert.equal((await postJson(`${api}/clients`, { name: 'db-live', address: '10.0.0.6', subscriptions: [], keepalives: true })).status, 201);
  const ws = new WebSocket(agentd, {
    headers: {
      'Sensu-AgentName': 'rogue',
      'Sensu-Namespace': 'default',
      'Sensu-User': 'agent',
      'Sensu-Subscriptions': 'linux',
      authorization: basic('agent', AGENT_PASSWORD),
    },
  });
  t.after(() => ws.close());
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(Buffer.from(`keepalive\n${JSON.stringify({ entity: { metadata: { name: 'rogue' }, system: { hostname: 'h' } }, check: { timeout: 120, ttl: 0 } })}`));
  await eventually(
    () => getJson(`${api}/clients/rogue`),
    (r) => r.status === 200,
  );
  const send = (check: Record<string, unknown>) =>
    ws.send(Buffer.from(`event\n${JSON.stringify({ check: { executed: Math.floor(Date.now() / 1000), issued: 1, ...check } })}`));

  // Another client's name on a check that names none: the result is the sender's own.
  send({ metadata: { name: 'disk', annotations: CONF_D }, proxy_entity_name: 'db-1', output: 'forged', status: 2 });
  const own = await eventually(
    () => getJson(`${api}/results/rogue/disk`),
    (r) => r.status === 200,
  );
  assert.equal(own.body.check.output, 'forged');
  assert.equal((await getJson(`${api}/results/db-1/disk`)).status, 404);

  // A proxy check's result for a client with keepalives (no proxy client), or for an agent: refused, its open event kept.
  assert.equal((await postJson(`${api}/results`, { source: 'db-live', name: 'ping', output: 'down', status: 2 })).status, 202);
  await eventually(
    () => getJson(`${api}/events/db-live/ping`),
    (r) => r.status === 200,
  );
  send({ metadata: { name: 'ping', annotations: CONF_D }, proxy_entity_name: 'db-live', output: 'forged up', status: 0 });
  const live = await daemon.waitFor((l) => String(l.msg).startsWith('agent result of a legacy check refused'));
  assert.match(String(live.msg), /"db-live".*keepalives/);
  send({ metadata: { name: 'ping', annotations: CONF_D }, proxy_entity_name: 'rogue', output: 'forged', status: 2 });
  assert.match(String((await daemon.waitFor((l) => String(l.msg).includes('"rogue" names a Sensu Go agent'))).msg), /refused/);
  // The proxy client its request matched: the result is that client's.
  send({ metadata: { name: 'ping', annotations: CONF_D }, proxy_entity_name: 'db-1', output: 'proxied', status: 0 });
  assert.equal(
    (
      await eventually(
        () => getJson(`${api}/results/db-1/ping`),
        (r) => r.status === 200,
      )
    ).body.check.output,
    'proxied',
  );
  assert.equal((await getJson(`${api}/events/db-live/ping`)).body.check.output, 'down');
  assert.equal((await getJson(`${api}/results/rogue/ping`)).status, 404);

  send({ metadata: { name: 'disk', annotations: CONF_D }, output: 'x', status: 'two' });
  const refused = await daemon.waitFor((l) => String(l.msg).startsWith('agent result of a legacy check refused') && /status/.test(String(l.msg)));
  assert.ok(refused);

  // A check conf.d does not define is no conf.d result: the agent's v2 event, as any other.
  send({ metadata: { name: 'made-up', annotations: CONF_D }, output: 'v2', status: 1, interval: 60 });
  const auth = `Bearer ${await adminToken(v2)}`;
  const event = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/rogue/made-up`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(event.body.check.output, 'v2');
  // The legacy API shows it as a view of that one v2 event (the agent's events in both APIs), not as a legacy result.
  const view = await getJson(`${api}/results/rogue/made-up`);
  assert.equal(view.body.check.output, 'v2');
  assert.equal((await getJson(`${api}/results/db-1/made-up`)).status, 404);
  assert.equal((await getJson(`${api}/info`)).status, 200, 'the daemon keeps running');
});
