// The handler queue as a service: every event that leaves the intake is handled, legacy results by their check's
// handlers (and watched by the observer, which changes nothing), v2 events by their namespace's handlers, and
// registrations by the registration handler.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Handling, type HandlingObserver } from '../../src/handling/service.js';
import { Intake } from '../../src/intake/intake.js';
import { daemonAssets } from '../../src/assets/index.js';
import { SecretsResolver } from '../../src/secrets/index.js';
import { spawnCommand } from '../../src/execute/index.js';
import { stopAllGroups } from '../../src/execute/spawn.js';
import { systemClock } from '../../src/schedule/clock.js';
import { typedEvent } from '../../src/v2/index.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { keepEachCommand, keptEvents } from '../helpers/kept-events.js';
import { eventDraft } from '../helpers/event-draft.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { until } from '../helpers/wait.js';

function handlingOf(t: TestContext, observer?: HandlingObserver, more: Record<string, unknown> = {}) {
  const dir = makeTree({});
  const store = sqliteStore(t);
  store.resources.putResource('Namespace', '', 'default', { name: 'default' });
  const settings = settingsOf({
    client: { name: 'door', address: '127.0.0.1', subscriptions: [] },
    checkbridge: { entity_limit: 0 },
    handlers: { keep: { type: 'pipe', command: keepEachCommand(join(dir, 'legacy')) }, ...more },
  });
  const { logger, messages } = capturedLogger();
  const intake = new Intake(store, () => settings, systemClock, logger);
  const assets = daemonAssets(join(dir, 'state'), () => settings, logger);
  const secrets = new SecretsResolver({ store: store.resources, logger });
  const handling = new Handling({
    settings: () => settings,
    store,
    logger,
    clock: systemClock,
    spawn: spawnCommand,
    deleteClient: async () => false,
    intake,
    v2: (ns) => ({ assets: assets.v2(store.resources, ns), secrets: secrets.in(ns) }),
    ...(observer ? { observer } : {}),
  });
  t.after(async () => {
    await handling.stop(Date.now() + 10_000);
    await intake.flushed();
    removeTree(dir);
  });
  return { dir, store, intake, handling, messages };
}

test("a legacy result's event runs its check's handlers, and the observer sees it with the decision", async (t) => {
  const seen: [string, string[]][] = [];
  const { dir, intake } = handlingOf(t, {
    observe: (processed, decision) => seen.push([String(processed.event.check.name), decision?.handlers.map((h) => h.handler.name) ?? []]),
  });
  await intake.submit({ client: 'door', check: { name: 'disk', output: 'disk 91%', status: 2, handlers: ['keep'], issued: 1, executed: 1 } });
  assert.ok(await until(() => keptEvents(join(dir, 'legacy')).length === 1, 8000), 'the handler ran');
  const [event] = keptEvents(join(dir, 'legacy'));
  assert.deepEqual([event!.client.name, event!.check.output, event!.action], ['door', 'disk 91%', 'create']);
  assert.deepEqual(seen, [['disk', ['keep']]]);
});

test("a v2 event runs its check's handlers from its namespace's Handler resources", async (t) => {
  const { dir, store, intake } = handlingOf(t);
  store.resources.putResource('Handler', 'default', 'mail', {
    metadata: { name: 'mail', namespace: 'default' },
    type: 'pipe',
    command: keepEachCommand(join(dir, 'v2')),
  });
  const body = typedEvent({
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'disk' }, status: 2, output: 'full', handlers: ['mail'] },
  }).value!;
  assert.ok((await intake.submitEvent('default', body)).ok);
  assert.ok(await until(() => keptEvents(join(dir, 'v2')).length === 1, 8000), 'the v2 handler ran');
  const [event] = keptEvents(join(dir, 'v2'));
  assert.deepEqual([event!.entity.metadata.name, event!.check.output], ['web-1', 'full']);
});

test("a registration from the intake is handled by its check's handlers", async (t) => {
  const { dir, intake } = handlingOf(t);
  intake.submitRegistration(eventDraft({ name: 'registration', handlers: ['keep'] }, { client: { name: 'new-client' } }));
  assert.ok(await until(() => keptEvents(join(dir, 'legacy')).length === 1, 8000), 'the handler ran');
  assert.equal(keptEvents(join(dir, 'legacy'))[0]!.client.name, 'new-client');
});

test('handlers still running at the deadline of stop are stopped, and said', async (t) => {
  const { intake, handling, messages } = handlingOf(t, undefined, { slow: { type: 'pipe', command: 'cat > /dev/null; sleep 30' } });
  await handling.start();
  await intake.submit({ client: 'door', check: { name: 'slow', output: 'x', status: 2, handlers: ['slow'], issued: 1, executed: 1 } });
  assert.ok(await until(() => handling.handlers.pending > 0, 5000), 'the handler started');
  await handling.stop(Date.now() + 300);
  assert.ok(messages().includes('still running at stop: their processes are stopped'));
  // The daemon's execution stops them after the services: done here as it does.
  await stopAllGroups(100);
});
