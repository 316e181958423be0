// An API change to an agent's entity reaches the real agent itself: a check it runs substitutes the new label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 1 } } };
import type { Json } from '../../src/json.js';

test('a label set through the API reaches the agent as entity_config: its checks substitute it', { skip, timeout: 120_000 }, async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const agent = await startAgent(t, agentd, 'cfg-1', agentFlags());
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
  // Sensu Go substitutes check tokens on the agent, from the agent's own copy of its entity.
  const check = {
    metadata: { name: 'team' },
    command: 'echo team={{ .labels.team | default "none" }}',
    interval: 1,
    publish: true,
    subscriptions: ['entity:cfg-1'],
    handlers: [],
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/checks/team`, 'PUT', auth, check)).status, 201);
  const eventUrl = `${v2}/api/core/v2/namespaces/default/events/cfg-1/team`;
  const before = await eventually(
    () => call(eventUrl, 'GET', auth),
    (r) => r.status === 200,
    30_000,
  );
  assert.equal(String(before.body.check.output).trim(), 'team=none', 'no label yet');

  const entityUrl = `${v2}/api/core/v2/namespaces/default/entities/cfg-1`;
  const stored = (await call(entityUrl, 'GET', auth)).body as Json;
  assert.equal((await call(entityUrl, 'PUT', auth, { ...stored, metadata: { ...stored.metadata, labels: { team: 'ops' } } })).status, 200);
  const after = await eventually(
    () => call(eventUrl, 'GET', auth),
    (r) => String(r.body.check?.output).trim() === 'team=ops',
    30_000,
  );
  assert.equal(String(after.body.check.output).trim(), 'team=ops', 'the agent holds the label the API set');
  assert.ok(agent.lines.some((l) => l.msg === 'received an entity config from the backend'));
});
