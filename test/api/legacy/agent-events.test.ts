import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentEventView,
  agentHistoryOf,
  agentResultOf,
  resolveAgentEvent,
  sortHistory,
  sortResults,
  type AgentCheck,
} from '../../../src/api/legacy/agent-events.js';
import { EmbeddedEventStore } from '../../../src/store/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import type { Json } from '../../../src/json.js';

const NOW = 1_700_000_000;

const v2Event = (namespace: string, entity: string, check: string, statuses: number[]) => ({
  metadata: { namespace },
  entity: { entity_class: 'agent', metadata: { name: entity, namespace }, subscriptions: ['linux'] },
  check: {
    metadata: { name: check, namespace },
    command: `check-${check}`,
    interval: 60,
    status: statuses.at(-1),
    output: `${check} says ${statuses.at(-1)}`,
    issued: NOW - 10,
    executed: NOW - 10,
    history: statuses.map((status, i) => ({ status, executed: NOW - 10 * (statuses.length - i) })),
  },
  timestamp: NOW - 9,
});

// Two agents (team-a shown, team-b not), an invalidated agent, a legacy client; agent-a's keepalive is a legacy result.
function fixture(t: TestContext) {
  const store = sqliteStore(t);
  store.putClient({ name: 'agent-a', entity_class: 'agent', namespace: 'team-a', subscriptions: [] });
  store.putClient({ name: 'agent-b', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  store.putClient({ name: 'agent-gone', entity_class: 'agent', namespace: 'team-a', subscriptions: [], invalidated: true });
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: [] });
  for (const [ns, entity, check, statuses] of [
    ['team-a', 'agent-a', 'disk', [0, 2]],
    ['team-a', 'agent-a', 'cpu', [1, 0]],
    ['team-a', 'agent-a', 'keepalive', [2]],
    ['team-a', 'agent-gone', 'disk', [2]],
    ['team-b', 'agent-b', 'mem', [1]],
    ['team-a', 'legacy-1', 'disk', [2]],
  ] as const)
    store.resources.putEvent(ns, entity, check, v2Event(ns, entity, check, [...statuses]));
  store.putResult('agent-a', { name: 'keepalive', status: 2, output: 'lost' }, [{ status: 2, executed: NOW }], null);
  const events = new EmbeddedEventStore(store.resources);
  const view = new AgentEventView(store, events, (client) => client.namespace !== 'team-b');
  return { store, events, view };
}

const keys = (found: AgentCheck[]) => found.map(({ client, namespace, event }) => `${namespace}/${String(client.name)}/${String(event.check?.metadata?.name)}`);

test('agent events: the checks of shown, valid agents, less those the legacy side holds as its own results', async (t) => {
  const { view } = fixture(t);
  assert.deepEqual(keys(await view.checks()), ['team-a/agent-a/cpu', 'team-a/agent-a/disk']);
  assert.deepEqual(keys(await view.checks('agent-a')), ['team-a/agent-a/cpu', 'team-a/agent-a/disk']);
  assert.deepEqual(await view.checks('agent-b'), [], 'an agent the caller does not see');
  assert.deepEqual(await view.checks('legacy-1'), [], 'a legacy client has no agent checks');
  assert.deepEqual(await view.checks('agent-gone'), [], 'an invalidated agent');
  assert.deepEqual(await view.checks('nobody'), []);
});

test('agent events: open is the checks whose status is not OK', async (t) => {
  const { view } = fixture(t);
  assert.deepEqual(keys(await view.open()), ['team-a/agent-a/disk']);
  assert.deepEqual(keys(await view.open('agent-a')), ['team-a/agent-a/disk']);
});

test("agent events: the caller's rule decides which agents are read", async (t) => {
  const { store, events } = fixture(t);
  const everyone = new AgentEventView(store, events, () => true);
  assert.deepEqual(keys(await everyone.open()), ['team-a/agent-a/disk', 'team-b/agent-b/mem']);
});

test('agent events: one check by name, null for a legacy-held check, an unseen agent, a legacy client or no event', async (t) => {
  const { view } = fixture(t);
  const found = await view.check('agent-a', 'cpu');
  assert.deepEqual([found?.namespace, found?.client.name, found?.event.check?.status], ['team-a', 'agent-a', 0]);
  for (const [client, check] of [
    ['agent-a', 'keepalive'],
    ['agent-b', 'mem'],
    ['legacy-1', 'disk'],
    ['agent-a', 'absent'],
    ['agent-gone', 'disk'],
  ] as const)
    assert.equal(await view.check(client, check), null, `${client}/${check}`);
  assert.equal(await view.openEvent('agent-a', 'cpu'), null, 'an OK check is no open event');
  assert.equal((await view.openEvent('agent-a', 'disk'))?.event.check?.status, 2);
});

test('agent events: open events read as legacy events, merged after legacy ones in client then check order', async (t) => {
  const { store, view } = fixture(t);
  const [event] = await view.openEvents('agent-a');
  assert.deepEqual(event!.client, store.getClient('agent-a'));
  const check = event!.check as Record<string, unknown>;
  assert.deepEqual([check.name, check.status, check.history, event!.timestamp], ['disk', 2, ['0', '2'], NOW - 9]);
  const legacy = [
    { client: { name: 'zeta' }, check: { name: 'a' } },
    { client: { name: 'agent-a' }, check: { name: 'zzz' } },
    { client: { name: 'agent-a' }, check: { name: 'aaa' } },
  ];
  assert.deepEqual(
    (await view.withLegacy(legacy)).map((e: Json) => `${e.client.name}/${e.check.name}`),
    ['agent-a/aaa', 'agent-a/disk', 'agent-a/zzz', 'zeta/a'],
  );
  const quiet = new AgentEventView(store, new EmbeddedEventStore(store.resources), () => false);
  assert.equal(await quiet.withLegacy(legacy), legacy, 'no agent events: the legacy list as it is');
});

test('agent results: the legacy result shape with statuses as history, and /history entries from the one v2 history', async (t) => {
  const { view } = fixture(t);
  const disk = (await view.check('agent-a', 'disk'))!;
  const result = agentResultOf(disk);
  assert.equal(result.client, 'agent-a');
  assert.deepEqual(
    { ...result.check },
    {
      name: 'disk',
      command: 'check-disk',
      interval: 60,
      subscribers: [],
      handlers: [],
      issued: NOW - 10,
      executed: NOW - 10,
      output: 'disk says 2',
      status: 2,
      history: ['0', '2'],
      total_state_change: 0,
    },
  );
  const history = agentHistoryOf(disk);
  const { history: _statuses, ...lastResult } = result.check;
  assert.deepEqual(history, { check: 'disk', history: [0, 2], last_execution: NOW - 10, last_status: 2, last_result: lastResult });
  const bare: AgentCheck = { ...disk, event: { ...disk.event, check: { ...disk.event.check, history: [], status: 1 } } };
  assert.equal(agentHistoryOf(bare).last_status, 1, 'without history the last status is the check status');
});

test('sortResults and sortHistory: client, then check name; history by check name', () => {
  const results = [
    { client: 'b', check: { name: 'x' } },
    { client: 'a', check: { name: 'z' } },
    { client: 'a', check: { name: 'y' } },
  ];
  assert.deepEqual(
    sortResults(results).map((r) => `${r.client}/${String(r.check.name)}`),
    ['a/y', 'a/z', 'b/x'],
  );
  assert.deepEqual(
    sortHistory([{ check: 'mem' }, { check: 'cpu' }, { check: 'disk' }]).map((h) => h.check),
    ['cpu', 'disk', 'mem'],
  );
});

test('resolving an agent event submits an OK of the same check to the intake; its history keeps the statuses', async (t) => {
  const { store, view } = fixture(t);
  store.resources.putResource('Namespace', '', 'team-a', { name: 'team-a' });
  const clock = new ManualClock(NOW * 1000);
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(store, () => settings, clock, capturedLogger().logger);
  const found = (await view.openEvent('agent-a', 'disk'))!;
  assert.equal(await resolveAgentEvent(intake, store, found, NOW * 1000 + 5000), null);
  const stored = store.resources.getEvent('team-a', 'agent-a', 'disk') as Json;
  assert.deepEqual(
    [stored.check.status, stored.check.output, stored.check.executed, stored.check.command],
    [0, 'Resolving on request of the API', NOW + 5, 'check-disk'],
  );
  assert.deepEqual(
    stored.check.history.map((h: Json) => h.status),
    [0, 2, 0],
  );
  assert.equal(await view.openEvent('agent-a', 'disk'), null);
});

test('resolving an agent event that is no valid event answers the problem', async (t) => {
  const { store, view } = fixture(t);
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] } });
  const intake = new Intake(store, () => settings, new ManualClock(NOW * 1000), capturedLogger().logger);
  const found = (await view.openEvent('agent-a', 'disk'))!;
  const broken: AgentCheck = { ...found, event: { ...found.event, check: { ...found.event.check, metadata: { name: 'bad name!' } } } };
  const problem = await resolveAgentEvent(intake, store, broken, NOW * 1000);
  assert.equal(typeof problem, 'string');
  assert.match(String(problem), /name/);
});
