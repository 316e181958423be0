// On the real Sensu Go 6.12 agent and sensuctl: a CheckConfig created with `sensuctl create -f` runs at its
// interval with its fields in the events; an interval edited through the API reschedules it; a delete stops it;
// `sensuctl check execute` runs a publish:false check at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../api/v2/v2-helpers.js';
import { ADMIN_PASSWORD, eventually } from '../helpers/instance.js';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { sensuctlSkipReason, sensuctlFor, ok } from '../helpers/sensuctl.js';
import { v2CheckInstance, eventWhere, issuedSeries, gaps, type Json, refusals } from './v2-checks-helpers.js';

const skip = agentSkipReason() || sensuctlSkipReason();

const DISK = `type: CheckConfig
api_version: core/v2
metadata:
  name: disk
  labels:
    team: storage
  annotations:
    runbook: https://runbooks.example/disk
spec:
  command: "echo 'disk ok | used=42;80;90'"
  interval: 2
  publish: true
  subscriptions: [linux]
  handlers: [keepit]
  output_metric_format: nagios_perfdata
  output_metric_handlers: [metrics]
  timeout: 10
`;

/** The events the `keepit` pipe handler wrote, one JSON document a line. */
async function readHandled(root: string): Promise<Json[]> {
  const file = join(root, 'handled.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Json];
      } catch {
        return [];
      }
    });
}

test(
  'a CheckConfig from sensuctl create -f runs on the agent at its interval with its fields; an interval edit reschedules it; a delete stops it',
  { skip, timeout: 150_000 },
  async (t) => {
    const { v2, agentd, root, auth, ns, event, put } = await v2CheckInstance(t);
    const sensuctl = sensuctlFor(t);
    ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
    writeFileSync(join(root, 'disk.yaml'), DISK);
    ok(sensuctl, 'create', '-f', join(root, 'disk.yaml'));
    // A second check on the same agent: the clock the delete is measured against.
    await put('handlers', {
      metadata: { name: 'keepit' },
      type: 'pipe',
      command: `cat >> ${join(root, 'handled.jsonl')}; echo >> ${join(root, 'handled.jsonl')}`,
    });
    await put('checks', { metadata: { name: 'beside' }, command: 'echo beside', interval: 1, publish: true, subscriptions: ['linux'], handlers: [] });
    const agent = await startAgent(t, agentd, 'runner-1', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    const first = await eventWhere(event, 'runner-1', 'disk', () => true);
    assert.equal(first.check.output.trim(), 'disk ok | used=42;80;90');
    assert.equal(first.check.interval, 2);
    assert.deepEqual(first.check.subscriptions, ['linux']);
    assert.deepEqual(first.check.handlers, ['keepit']);
    assert.equal(first.check.output_metric_format, 'nagios_perfdata');
    assert.deepEqual(first.check.output_metric_handlers, ['metrics']);
    assert.equal(first.check.timeout, 10);
    assert.equal(first.check.metadata.labels?.team, 'storage');
    assert.equal(first.check.metadata.annotations?.runbook, 'https://runbooks.example/disk');
    // The event its handler receives carries the metric the agent extracted (metrics are handled, not stored).
    const handled = await eventually(
      async () => readHandled(root),
      (events) => events.some((e) => e.check?.metadata?.name === 'disk'),
      30_000,
    );
    const withMetrics = handled.find((e) => e.check?.metadata?.name === 'disk');
    assert.ok(withMetrics, `the keepit handler received the event: ${JSON.stringify(handled)}`);
    assert.deepEqual(
      withMetrics.metrics?.points?.map((p: Json) => [p.name, p.value]),
      [['used', 42]],
    );
    assert.deepEqual(withMetrics.metrics?.handlers, ['metrics']);

    // Requests are issued on the interval's instants: every gap a multiple of 2 s.
    const before = await issuedSeries(event, 'runner-1', 'disk', (s) => s.length >= 4);
    assert.ok(before.length >= 4, `four requests seen: ${JSON.stringify(before)}`);
    assert.ok(gaps(before).every((g) => g % 2 === 0) && gaps(before).includes(2), `gaps of 2 s: ${JSON.stringify(before)}`);

    // An edit through the API: from the next request on, gaps of 3 s.
    const edited = await call(`${ns}/checks/disk`, 'GET', auth);
    const editedAt = Math.floor(Date.now() / 1000);
    await put('checks', { ...edited.body, interval: 3 });
    const after = await issuedSeries(event, 'runner-1', 'disk', (s) => s.length >= 4, editedAt + 1);
    assert.ok(after.length >= 4, `four requests seen after the edit: ${JSON.stringify(after)}`);
    assert.ok(gaps(after).every((g) => g % 3 === 0) && gaps(after).includes(3), `gaps of 3 s after the edit: ${JSON.stringify(after)}`);
    assert.equal((await event('runner-1', 'disk')).body.check.interval, 3);

    // A delete: no request of it is issued after, while the other check goes on for two of its intervals and more.
    assert.equal((await call(`${ns}/checks/disk`, 'DELETE', auth)).status, 204);
    const deletedAt = Math.floor(Date.now() / 1000);
    await eventWhere(event, 'runner-1', 'beside', (e) => e.check.issued >= deletedAt + 7, 30_000);
    const last = (await event('runner-1', 'disk')).body.check.issued;
    assert.ok(last <= deletedAt, `no request issued after the delete (last ${last}, deleted at ${deletedAt})`);
    assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
  },
);

test('sensuctl check execute runs a publish:false check on the agent at once, with the subscriptions it names', { skip, timeout: 90_000 }, async (t) => {
  const { v2, agentd, event, put } = await v2CheckInstance(t);
  const sensuctl = sensuctlFor(t);
  ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
  await put('checks', { metadata: { name: 'by-hand' }, command: 'echo asked-for', interval: 60, publish: false, subscriptions: ['nowhere'], handlers: [] });
  const agent = await startAgent(t, agentd, 'runner-2', [...agentFlags(), '--subscriptions', 'linux']);
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

  // Its own subscription has no member: nothing runs.
  ok(sensuctl, 'check', 'execute', 'by-hand');
  // Told to run on the agent's entity subscription, it runs there.
  const sentAt = Math.floor(Date.now() / 1000);
  ok(sensuctl, 'check', 'execute', 'by-hand', '--subscriptions', 'entity:runner-2', '--reason', 'testing');
  const ran = await eventWhere(event, 'runner-2', 'by-hand', () => true);
  assert.equal(ran.check.output.trim(), 'asked-for');
  assert.ok(ran.check.issued >= sentAt, `issued by this execute (${ran.check.issued} >= ${sentAt})`);
  assert.equal(ran.check.history.length, 1, 'run once: the first execute reached nobody');
  assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
});

test(
  'a check of two subscriptions the agent holds both of runs once per interval: the agent is sent one request an issue, so none is refused',
  { skip, timeout: 90_000 },
  async (t) => {
    const { agentd, event, put } = await v2CheckInstance(t);
    await put('checks', {
      metadata: { name: 'both-subs' },
      command: 'sleep 0.3; echo once',
      // Two seconds apart: a late request and the next on-time one a second later can start within one clock second.
      interval: 2,
      publish: true,
      subscriptions: ['linux', 'web'],
      handlers: [],
    });
    const agent = await startAgent(t, agentd, 'runner-3', [...agentFlags(), '--subscriptions', 'linux,web']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    const ran = await eventWhere(event, 'runner-3', 'both-subs', (e) => e.check.history.length >= 4);
    const executed = (ran.check.history as Json[]).map((h) => h.executed);
    assert.equal(new Set(executed).size, executed.length, `one execution per interval: ${JSON.stringify(executed)}`);
    // Sensu Go sends one per subscription and the agent drops the second only once the first has started: both can run.
    assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
  },
);
