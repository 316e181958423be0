// On the real Sensu Go 6.12 agent: a check's HookConfigs travel with its request; the agent runs the one
// whose severity matches the result, and the hook's output is in the event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { v2CheckInstance, eventWhere, type Json, refusals } from './v2-checks-helpers.js';

const skip = agentSkipReason();

test(
  'a hook runs on the agent for a non-zero status and its output is in the event; a hook of another severity does not run',
  { skip, timeout: 90_000 },
  async (t) => {
    const { agentd, event, put } = await v2CheckInstance(t);
    await put('hooks', { metadata: { name: 'explain' }, command: 'echo hook saw {{ .name }}', timeout: 10, stdin: false });
    await put('hooks', { metadata: { name: 'when-ok' }, command: 'echo all fine', timeout: 10, stdin: false });
    await put('checks', {
      metadata: { name: 'failing' },
      command: 'echo broken; exit 2',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      check_hooks: [{ 'non-zero': ['explain'] }, { ok: ['when-ok'] }],
    });
    await put('checks', {
      metadata: { name: 'passing' },
      command: 'echo fine',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      check_hooks: [{ 'non-zero': ['explain'] }],
    });
    const agent = await startAgent(t, agentd, 'hooked', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    const failed = await eventWhere(event, 'hooked', 'failing', (e) => (e.check.hooks ?? []).length > 0);
    assert.equal(failed.check.status, 2);
    const hooks = failed.check.hooks as Json[];
    assert.deepEqual(
      hooks.map((h) => h.metadata.name),
      ['explain'],
    );
    // The agent rendered the hook's template with its own entity, ran it and kept its output and status.
    assert.equal(hooks[0]!.output.trim(), 'hook saw hooked');
    assert.equal(hooks[0]!.status, 0);
    const passed = await eventWhere(event, 'hooked', 'passing', () => true);
    assert.equal(passed.check.status, 0);
    assert.equal((passed.check.hooks ?? []).length, 0, 'no hook for a passing check of a non-zero hook');
    assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
  },
);
