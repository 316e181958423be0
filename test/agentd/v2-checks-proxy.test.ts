// On the real Sensu Go 6.12 agent: a proxy check runs once per proxy entity its entity_attributes match,
// spread by splay, with its Go templates rendered with the proxy entity's values; the events are the proxy entity's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { v2CheckInstance, eventWhere, refusals } from './v2-checks-helpers.js';

const skip = agentSkipReason();
const proxyEntity = (name: string, labels: Record<string, string>) => ({ metadata: { name, labels }, entity_class: 'proxy', subscriptions: [] });

test(
  "a proxy check runs once per matching proxy entity, spread by splay, its templates holding the proxy entity's values",
  { skip, timeout: 120_000 },
  async (t) => {
    const { agentd, event, put, daemon } = await v2CheckInstance(t);
    await put('entities', proxyEntity('db-1', { tier: 'db', region: 'eu' }));
    await put('entities', proxyEntity('db-2', { tier: 'db', region: 'us' }));
    await put('entities', proxyEntity('web-1', { tier: 'web', region: 'eu' }));
    // A database without a region: its template has no value, so it gets no request (Sensu Go logs and skips it).
    await put('entities', proxyEntity('db-3', { tier: 'db' }));
    await put('checks', {
      metadata: { name: 'ping' },
      command: 'echo {{ .name }} in {{ .labels.region }} zone {{ .labels.zone | default "none" }}',
      interval: 10,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      proxy_requests: { entity_attributes: ["entity.entity_class == 'proxy'", "entity.labels.tier == 'db'"], splay: true, splay_coverage: 90 },
    });
    const agent = await startAgent(t, agentd, 'poller', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    const one = await eventWhere(event, 'db-1', 'ping', () => true);
    const two = await eventWhere(event, 'db-2', 'ping', () => true);
    assert.equal(one.check.output.trim(), 'db-1 in eu zone none');
    assert.equal(two.check.output.trim(), 'db-2 in us zone none');
    for (const [e, name] of [
      [one, 'db-1'],
      [two, 'db-2'],
    ] as const) {
      assert.equal(e.entity.metadata.name, name);
      assert.equal(e.entity.entity_class, 'proxy');
      assert.equal(e.check.proxy_entity_name, name);
    }
    // Three matching entities (db-3's slot kept, as Sensu Go keeps it) over 90% of 10 s: 3 s apart, in every round.
    const apart = (((two.check.issued - one.check.issued) % 10) + 10) % 10;
    assert.equal(apart, 3, `issued ${one.check.issued} and ${two.check.issued}: 3 s apart`);

    const refused = await daemon.waitFor((l) => l.msg === 'could not substitute tokens for proxy entity' && l.entity === 'db-3');
    assert.match(String(refused.error), /command: unmatched token: \{\{ \.labels\.region \}\} has no value/);
    assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
    for (const never of ['web-1', 'db-3', 'poller']) assert.equal((await event(never, 'ping')).status, 404, `no ping event for ${never}`);
  },
);
