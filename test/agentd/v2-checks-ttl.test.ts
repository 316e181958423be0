// On the real Sensu Go 6.12 agent: a check's ttl gives an event when its results stop, as Sensu Go's eventd
// does (server/v2-ttl.ts; the legacy TTL monitor reads legacy results only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { v2CheckInstance, eventWhere } from './v2-checks-helpers.js';

const skip = agentSkipReason();

test('an agent check whose results stop gets the TTL event', { skip, timeout: 90_000 }, async (t) => {
  const { agentd, event, put } = await v2CheckInstance(t);
  const lapsing = { metadata: { name: 'lapsing' }, command: 'echo fine', interval: 1, ttl: 5, publish: true, subscriptions: ['linux'], handlers: [] };
  await put('checks', lapsing);
  const agent = await startAgent(t, agentd, 'ttl-agent', [...agentFlags(), '--subscriptions', 'linux']);
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
  await eventWhere(event, 'ttl-agent', 'lapsing', (e) => e.check.status === 0);
  // Results stop (unpublished): the TTL monitor's event follows, as Sensu Go's.
  await put('checks', { ...lapsing, publish: false });
  const lapsed = await eventWhere(event, 'ttl-agent', 'lapsing', (e) => /Last check execution was/.test(e.check.output), 20_000);
  assert.equal(lapsed.check.status, 1);
});
