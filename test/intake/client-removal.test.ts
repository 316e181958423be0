// Removing a client (API delete, deregistration) through a real intake on SQLite: its events resolved and handled, then its records gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeClient, resolveEvent } from '../../src/intake/client-removal.js';
import { isV2Event, type IntakeEvent } from '../../src/intake/intake-types.js';
import type { EventDraft } from '../../src/legacy/index.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const NOW_MS = 1_700_000_000_750;
const NOW = 1_700_000_000;

const result = (client: string, name: string, status: number, extra: Record<string, unknown> = {}) => ({
  client,
  check: { name, status, output: `${name} is ${status}`, executed: NOW - 60, issued: NOW - 60, ...extra },
});

/** The legacy events the intake emits from now on. */
function legacyEvents(intake: { onEvent(listener: (event: IntakeEvent) => void): void }): EventDraft[] {
  const events: EventDraft[] = [];
  intake.onEvent((emitted) => {
    if (!isV2Event(emitted)) events.push(emitted.event);
  });
  return events;
}

test('removing an unknown client does nothing and says so', async (t) => {
  const { store, intake } = sqliteIntake(t);
  const events = legacyEvents(intake);
  assert.equal(await removeClient(store, intake, 'nobody', NOW_MS), false);
  assert.deepEqual(events, []);
});

test('a client with events has each resolved through the intake before it and its results are removed', async (t) => {
  const { store, intake } = sqliteIntake(t);
  await intake.submit(result('web-1', 'disk', 2));
  await intake.submit(result('web-1', 'cpu', 1));
  await intake.submit(result('web-1', 'mem', 0));
  await intake.submit(result('web-2', 'disk', 2));
  const events = legacyEvents(intake);

  assert.equal(await removeClient(store, intake, 'web-1', NOW_MS), true);
  assert.deepEqual(
    events.map((e) => `${e.check.name} ${e.action} ${e.check.status}`).sort(),
    ['cpu resolve 0', 'disk resolve 0'],
    'only current events resolve',
  );
  for (const event of events) {
    assert.equal(event.client.name, 'web-1');
    assert.equal(event.check.output, 'Resolving on request of the API');
    assert.equal(event.check.executed, NOW);
    assert.equal(event.check.force_resolve, true);
  }
  assert.equal(store.getClient('web-1'), null);
  assert.deepEqual(store.listResults('web-1'), []);
  assert.deepEqual(store.listEvents('web-1'), []);
  assert.equal(store.listEvents('web-2').length, 1, 'another client keeps its event');
});

test('removal with a tombstone keeps an invalidated record, and a tombstoned client cannot be removed again', async (t) => {
  const { store, intake } = sqliteIntake(t);
  await intake.submit(result('web-1', 'disk', 2));
  assert.equal(await removeClient(store, intake, 'web-1', NOW_MS, { until: NOW + 3600 }), true);
  const tombstone = store.getClient('web-1');
  assert.equal(tombstone?.invalidated, true);
  assert.equal(tombstone?.invalidated_until, NOW + 3600);
  assert.deepEqual(store.listEvents('web-1'), []);
  assert.equal(await removeClient(store, intake, 'web-1', NOW_MS), false);
  assert.notEqual(store.getClient('web-1'), null, 'the tombstone stays');
});

test('resolving an event carries the client signature, so a signed client accepts it', async (t) => {
  const { store, intake } = sqliteIntake(t);
  store.putClient({ name: 'signed', address: '10.0.0.1', subscriptions: [], signature: 'secret' });
  await intake.submit({ ...result('signed', 'disk', 2), signature: 'secret' });
  const [event] = store.listEvents('signed');
  assert.ok(event);
  await resolveEvent(intake, event, NOW_MS);
  assert.deepEqual(store.listEvents('signed'), []);
  await assert.rejects(intake.submit(result('signed', 'cpu', 2)), /invalid check result signature/, 'an unsigned result is refused');
});

test('resolving forces the event away even when its check does not auto-resolve, and drops the old history', async (t) => {
  const { store, intake } = sqliteIntake(t);
  await intake.submit(result('web-1', 'disk', 2, { auto_resolve: false }));
  await intake.submit(result('web-1', 'disk', 2, { auto_resolve: false }));
  const [event] = store.listEvents('web-1');
  assert.ok(event);
  const events = legacyEvents(intake);
  await resolveEvent(intake, event, NOW_MS);
  assert.deepEqual(store.listEvents('web-1'), []);
  assert.equal(events.length, 1);
  assert.deepEqual(events[0]?.check.history, ['2', '2', '0'], 'the history is the stored one plus the resolve');
  const stored = store.getResult('web-1', 'disk');
  assert.equal(stored?.check.status, 0);
  assert.equal('history' in (stored?.check ?? {}), false, "the event's history copy is not stored with the result");
});
