import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { legacyViews } from '../../../src/api/legacy/views.js';
import { Intake } from '../../../src/intake/intake.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import type { Settings } from '../../../src/config/index.js';

const settingsIn = (namespace: string) => settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { namespace } });

// The views over a real store, read under whichever settings `current` holds at the time of the call.
function views(t: TestContext) {
  const store = sqliteStore(t);
  const current: { settings: Settings } = { settings: settingsIn('team-a') };
  const clock = new ManualClock(1_700_000_000_000);
  const { logger } = capturedLogger();
  const view = legacyViews({
    store,
    settings: () => current.settings,
    intake: new Intake(store, () => current.settings, clock, logger),
    logger,
    clock,
    requestCheck: () => false,
  });
  store.putClient({ name: 'legacy-1', address: '10.0.0.1', subscriptions: [] });
  store.putClient({ name: 'gone', signature: 'invalidated', invalidated: true });
  store.putClient({ name: 'agent-a', entity_class: 'agent', namespace: 'team-a', subscriptions: [] });
  store.putClient({ name: 'agent-b', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  return { store, current, view };
}

test('views: a client record is visible unless invalidated or an agent of another namespace', (t) => {
  const { store, view } = views(t);
  assert.deepEqual(
    ['legacy-1', 'gone', 'agent-a', 'agent-b', 'absent'].map((name) => view.visible(store.getClient(name))?.name ?? null),
    ['legacy-1', null, 'agent-a', null, null],
  );
  assert.deepEqual(
    ['legacy-1', 'gone', 'agent-a', 'agent-b', 'absent'].map((name) => view.hidden(name)),
    [false, false, false, true, false],
  );
});

test('views: the rule follows the settings of the moment, for visibility and for the agents read', async (t) => {
  const { store, current, view } = views(t);
  store.resources.putEvent('team-b', 'agent-b', 'cpu', { entity: { metadata: { name: 'agent-b' } }, check: { metadata: { name: 'cpu' }, status: 2 } });
  assert.deepEqual(await view.agents.open(), []);
  current.settings = settingsIn('team-b');
  assert.equal(view.visible(store.getClient('agent-b'))?.name, 'agent-b');
  assert.equal(view.hidden('agent-a'), true);
  assert.deepEqual(
    (await view.agents.open()).map((found) => `${found.namespace}/${String(found.client.name)}`),
    ['team-b/agent-b'],
    'the agents are read from the embedded store when no event store is given',
  );
  assert.equal(view.scope().hides('agent-a'), true);
});

test("views: agentRecord is an agent's client record of any namespace, and nothing else", (t) => {
  const { view } = views(t);
  assert.equal(view.agentRecord('agent-b')?.namespace, 'team-b');
  assert.equal(view.agentRecord('agent-a')?.namespace, 'team-a');
  for (const name of ['legacy-1', 'absent', 42, undefined]) assert.equal(view.agentRecord(name), null, String(name));
});
