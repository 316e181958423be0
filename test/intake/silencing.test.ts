// Silencing of legacy events: the lookup keys, and how entries in a real SQLite store mark (or are consumed by) an event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySilencing, silenceKeys } from '../../src/intake/silencing.js';
import type { EventDraft } from '../../src/legacy/index.js';
import { sqliteStore as openStore } from '../helpers/sqlite-store.js';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;

/** An event of `check` on a client with these subscriptions. */
function eventOf(check: string, status: number, action: EventDraft['action'], subscriptions: unknown = ['web', 'client:web-1']): EventDraft {
  return {
    id: 'e1',
    client: { name: 'web-1', subscriptions },
    check: { name: check, status },
    occurrences: 1,
    occurrences_watermark: 1,
    last_ok: null,
    last_state_change: null,
    action,
    timestamp: NOW,
    silenced: true,
    silenced_by: ['left over'],
  };
}

test('the keys are each subscription with any check, then with this check, then every client with this check', () => {
  assert.deepEqual(silenceKeys(['web', 'client:web-1'], 'disk'), ['web:*', 'web:disk', 'client:web-1:*', 'client:web-1:disk', '*:disk']);
  assert.deepEqual(silenceKeys([], 'disk'), ['*:disk']);
  assert.deepEqual(silenceKeys(['web', 'web'], 'disk'), ['web:*', 'web:disk', '*:disk'], 'a repeated subscription is looked up once');
});

test('an event with no entry is not silenced, whatever it carried before', (t) => {
  const store = openStore(t);
  const event = eventOf('disk', 2, 'create');
  applySilencing(store, event, NOW_MS);
  assert.equal(event.silenced, false);
  assert.deepEqual(event.silenced_by, []);
});

test('entries for a subscription, the client and every client all silence, named by their ids in lookup order', (t) => {
  const store = openStore(t);
  store.silences.put('*:disk', { id: '*:disk' }, null);
  store.silences.put('web:*', { id: 'web:*' }, null);
  store.silences.put('client:web-1:disk', { id: 'client:web-1:disk' }, null);
  store.silences.put('db:*', { id: 'db:*' }, null);
  const event = eventOf('disk', 2, 'create');
  applySilencing(store, event, NOW_MS);
  assert.equal(event.silenced, true);
  assert.deepEqual(event.silenced_by, ['web:*', 'client:web-1:disk', '*:disk']);
});

test('an entry without an id is named by its key', (t) => {
  const store = openStore(t);
  store.silences.put('web:disk', { reason: 'maintenance' }, null);
  const event = eventOf('disk', 1, 'create');
  applySilencing(store, event, NOW_MS);
  assert.deepEqual(event.silenced_by, ['web:disk']);
});

test('a new OK event is never silenced', (t) => {
  const store = openStore(t);
  store.silences.put('*:disk', { id: '*:disk' }, null);
  const event = eventOf('disk', 0, 'create');
  applySilencing(store, event, NOW_MS);
  assert.equal(event.silenced, false);
  assert.deepEqual(event.silenced_by, []);
});

test('an entry silences only from its begin time on', (t) => {
  const store = openStore(t);
  store.silences.put('web:*', { id: 'later', begin: NOW + 60 }, null);
  store.silences.put('*:disk', { id: 'now', begin: NOW }, null);
  const event = eventOf('disk', 2, 'create');
  applySilencing(store, event, NOW_MS);
  assert.deepEqual(event.silenced_by, ['now']);
});

test('an expired entry silences nothing', (t) => {
  const store = openStore(t);
  store.silences.put('web:*', { id: 'gone' }, NOW_MS);
  store.silences.put('*:disk', { id: 'kept' }, NOW_MS + 1);
  const event = eventOf('disk', 2, 'create');
  applySilencing(store, event, NOW_MS);
  assert.deepEqual(event.silenced_by, ['kept']);
});

test('an expire-on-resolve entry is consumed by a resolve, which it does not silence', (t) => {
  const store = openStore(t);
  store.silences.put('web:disk', { id: 'web:disk', expire_on_resolve: true }, null);
  store.silences.put('*:disk', { id: '*:disk' }, null);
  const event = eventOf('disk', 0, 'resolve');
  applySilencing(store, event, NOW_MS);
  assert.deepEqual(event.silenced_by, ['*:disk'], 'a plain entry still silences the resolve');
  assert.equal(store.silences.get('web:disk', NOW_MS), null);
  assert.notEqual(store.silences.get('*:disk', NOW_MS), null);
});

test('an expire-on-resolve entry silences and stays while the check is not resolved', (t) => {
  const store = openStore(t);
  store.silences.put('web:disk', { id: 'web:disk', expire_on_resolve: true }, null);
  const event = eventOf('disk', 2, 'create');
  applySilencing(store, event, NOW_MS);
  assert.deepEqual(event.silenced_by, ['web:disk']);
  assert.notEqual(store.silences.get('web:disk', NOW_MS), null);
});

test('a client without a subscription list is silenced only by an entry for every client', (t) => {
  const store = openStore(t);
  store.silences.put('web:*', { id: 'web:*' }, null);
  store.silences.put('*:disk', { id: '*:disk' }, null);
  const event = eventOf('disk', 2, 'create', 'web');
  applySilencing(store, event, NOW_MS);
  assert.deepEqual(event.silenced_by, ['*:disk']);
});
