// The real Sensu Go 6.12 agent against the agent WebSocket: registration, keepalives, events, entity_config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getJson, eventually } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 1 } } };
import type { Json } from '../../src/json.js';

test(
  'a real agent registers over protobuf (its preferred format): its entity with system facts and version, last_seen advancing, in /clients, /health and /metrics',
  { skip },
  async (t) => {
    const { v2, api, agentd, daemon } = await agentInstanceFor(t, HOST);
    const agent = await startAgent(t, agentd, 'web-1', [...agentFlags(), '--subscriptions', 'linux,web']);
    await agent.waitFor((l) => l.msg === 'successfully connected');
    const connected = await daemon.waitFor((l) => l.msg === 'agent connected' && l.agent === 'web-1');
    assert.deepEqual(
      [connected.mtls, connected.secrets, connected.reason, connected.format],
      [false, 'withheld', 'not connected over TLS: secrets are sent only over mutual TLS', 'protobuf'],
      'secrets go only over mutual TLS',
    );
    // The agent may log its choice of format after it logs the connection: waited for, not read at once.
    const format = await agent.waitFor((l) => l.msg === 'setting serialization/deserialization');
    assert.equal(format.format, 'protobuf', 'the agent chose protobuf, offered in the handshake');
    const auth = `Bearer ${await adminToken(v2)}`;
    const entityUrl = `${v2}/api/core/v2/namespaces/default/entities/web-1`;
    const first = await eventually(
      () => call(entityUrl, 'GET', auth),
      (r) => r.status === 200,
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const entity = first.body as Json;
    assert.equal(entity.entity_class, 'agent');
    assert.equal(entity.sensu_agent_version, '6.12.0');
    assert.equal(typeof entity.system.hostname, 'string');
    assert.equal(entity.system.os, 'linux');
    assert.deepEqual([...entity.subscriptions].sort(), ['entity:web-1', 'linux', 'web']);
    const later = await eventually(
      () => call(entityUrl, 'GET', auth),
      (r) => r.body.last_seen > entity.last_seen,
    );
    assert.ok(later.body.last_seen > entity.last_seen, 'keepalives advance last_seen');
    const clients = (await getJson(`${api}/clients`)).body as Json[];
    const client = clients.find((c) => c.name === 'web-1');
    assert.equal(client?.entity_class, 'agent');
    assert.equal(client?.version, '6.12.0');
    assert.equal(client?.connected, true, 'the dashboard shows it connected');
    const health = (await getJson(`${v2}/health`)).body as Json;
    assert.equal(health.Annotations['checkbridge.agents.connected'], '1');
    assert.match(String((await getJson(`${v2}/metrics`)).body), /^checkbridge_agents_connected 1$/m);
  },
);

test('an API change to the entity reaches the connected agent as entity_config, and keepalives keep it', { skip }, async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const agent = await startAgent(t, agentd, 'web-2', agentFlags());
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
  const auth = `Bearer ${await adminToken(v2)}`;
  const entityUrl = `${v2}/api/core/v2/namespaces/default/entities/web-2`;
  const stored = (
    await eventually(
      () => call(entityUrl, 'GET', auth),
      (r) => r.status === 200,
    )
  ).body as Json;
  const received = () => agent.lines.filter((l) => l.msg === 'received an entity config from the backend').length;
  const before = received();
  const changed = { ...stored, metadata: { ...stored.metadata, labels: { team: 'ops' } }, subscriptions: [...stored.subscriptions, 'db'] };
  assert.equal((await call(entityUrl, 'PUT', auth, changed)).status, 200);
  await agent.waitFor(() => received() > before);
  const lastSeen = stored.last_seen as number;
  const after = await eventually(
    () => call(entityUrl, 'GET', auth),
    (r) => r.body.last_seen > lastSeen + 1,
  );
  assert.deepEqual(after.body.metadata.labels, { team: 'ops' }, 'later keepalives keep what the API set');
  assert.ok(after.body.subscriptions.includes('db'));
});

test("events from the agent's local API (3031) and socket (3030) are stored in the v2 API and run a pipe handler", { skip }, async (t) => {
  const { v2, root, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const out = join(root, 'handled.jsonl');
  assert.equal(
    (await call(`${v2}/api/core/v2/namespaces/default/handlers/record`, 'PUT', auth, { type: 'pipe', command: `cat >> ${out}; echo >> ${out}` })).status,
    201,
  );
  const agent = await startAgent(t, agentd, 'app-1', agentFlags());
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
  const posted = await fetch(`http://127.0.0.1:${agent.apiPort}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ check: { metadata: { name: 'from-api' }, status: 1, output: 'posted to 3031', interval: 60, handlers: ['record'] } }),
  });
  assert.equal(posted.status, 202);
  assert.equal(await tcpExchange(agent.socketPort, JSON.stringify({ name: 'from-socket', status: 2, output: 'written to 3030', handlers: ['record'] })), 'ok');
  const eventUrl = (check: string) => `${v2}/api/core/v2/namespaces/default/events/app-1/${check}`;
  for (const [check, status, output] of [
    ['from-api', 1, 'posted to 3031'],
    ['from-socket', 2, 'written to 3030'],
  ] as const) {
    const event = await eventually(
      () => call(eventUrl(check), 'GET', auth),
      (r) => r.status === 200,
    );
    assert.equal(event.status, 200, `${check}: ${JSON.stringify(event.body)}`);
    assert.equal(event.body.check.status, status);
    assert.equal(event.body.check.output, output);
    assert.equal(event.body.entity.entity_class, 'agent');
    assert.equal(event.body.entity.sensu_agent_version, '6.12.0', 'the event carries the stored agent entity');
  }
  const handled = await eventually(
    async () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
    (text) => text.includes('from-api') && text.includes('from-socket'),
  );
  assert.match(handled, /from-api/);
  assert.match(handled, /from-socket/);
});

test("a lost agent raises a keepalive warning after its own timeout; a --deregister agent's entity goes on loss", { skip }, async (t) => {
  const { v2, api, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const kept = await startAgent(t, agentd, 'kept-1', agentFlags());
  const leaving = await startAgent(t, agentd, 'leaving-1', [...agentFlags(), '--deregister']);
  for (const name of ['kept-1', 'leaving-1'])
    await eventually(
      () => call(`${v2}/api/core/v2/namespaces/default/entities/${name}`, 'GET', auth),
      (r) => r.status === 200,
    );
  await kept.stop();
  await leaving.stop();
  const disconnected = await eventually(
    () => getJson(`${api}/clients/kept-1`),
    (r) => r.body?.connected === false,
  );
  assert.equal(disconnected.body.connected, false, 'the record says it is no longer connected');
  const keepalive = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/kept-1/keepalive`, 'GET', auth),
    (r) => r.body?.check?.status === 1,
    20_000,
  );
  assert.equal(keepalive.body.check.status, 1, JSON.stringify(keepalive.body));
  assert.match(keepalive.body.check.output, /No keepalive sent from client for \d+ seconds \(>=5\)/);
  const legacy = await getJson(`${api}/events/kept-1`);
  assert.equal((legacy.body as Json[]).find((e) => e.check.name === 'keepalive')?.check.status, 1, 'the legacy API shows it too');
  const gone = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/leaving-1`, 'GET', auth),
    (r) => r.status === 404,
    20_000,
  );
  assert.equal(gone.status, 404, "the --deregister agent's entity is gone");
  assert.equal((await getJson(`${api}/clients/leaving-1`)).status, 404);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/entities/kept-1`, 'GET', auth)).status, 200, 'the other one stays');
});
