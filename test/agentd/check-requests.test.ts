// v2 CheckConfigs reach the real Sensu Go 6.12 agent as check_request frames: scheduled by subscription, ad hoc, and
// its results come back as events of the agent's entity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 1 } } };
import type { Json } from '../../src/json.js';

test(
  "a v2 CheckConfig of the agent's subscription runs on the real agent at its interval, and a publish:false one on check execute",
  { skip, timeout: 120_000 },
  async (t) => {
    const { v2, agentd } = await agentInstanceFor(t, HOST);
    const auth = `Bearer ${await adminToken(v2)}`;
    const checks = `${v2}/api/core/v2/namespaces/default/checks`;
    const scheduled = {
      metadata: { name: 'from-backend' },
      command: 'echo ran-on-the-agent; exit 1',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
    };
    const manual = { metadata: { name: 'by-hand' }, command: 'echo asked-for', interval: 60, publish: false, subscriptions: ['linux'], handlers: [] };
    const elsewhere = {
      metadata: { name: 'other-subscription' },
      command: 'echo never-here',
      interval: 1,
      publish: true,
      subscriptions: ['windows'],
      handlers: [],
    };
    for (const check of [scheduled, manual, elsewhere]) assert.equal((await call(`${checks}/${check.metadata.name}`, 'PUT', auth, check)).status, 201);
    const agent = await startAgent(t, agentd, 'runner-1', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    const eventUrl = (check: string) => `${v2}/api/core/v2/namespaces/default/events/runner-1/${check}`;

    const first = await eventually(
      () => call(eventUrl('from-backend'), 'GET', auth),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const event = first.body as Json;
    assert.equal(event.check.output.trim(), 'ran-on-the-agent');
    assert.equal(event.check.status, 1);
    assert.equal(event.check.interval, 1);
    assert.deepEqual(event.check.subscriptions, ['linux']);
    assert.equal(event.entity.metadata.name, 'runner-1');
    const later = await eventually(
      () => call(eventUrl('from-backend'), 'GET', auth),
      (r) => (r.body.check?.history?.length ?? 0) >= 3,
      30_000,
    );
    assert.ok(later.body.check.history.length >= 3, 'it keeps running at its interval');

    // publish:false never runs by itself; check execute sends it at once.
    assert.equal((await call(eventUrl('by-hand'), 'GET', auth)).status, 404);
    const executed = await call(`${checks}/by-hand/execute`, 'POST', auth, { reason: 'test' });
    assert.equal(executed.status, 202, JSON.stringify(executed.body));
    const ran = await eventually(
      () => call(eventUrl('by-hand'), 'GET', auth),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(ran.body.check.output.trim(), 'asked-for');
    // A check of another subscription never reaches this agent.
    assert.equal((await call(eventUrl('other-subscription'), 'GET', auth)).status, 404);
  },
);
