// The embedded event store over the state store's v2_events table: batches in one transaction, selectors over the
// redacted events, updates as the v2 backend makes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmbeddedEventStore } from '../../../src/store/tables/embedded-event-store.js';
import { parseSelector } from '../../../src/v2/selectors.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import type { Json } from '../../../src/json.js';

const event = (entity: string, check: string, status: number, labels: Record<string, string> = {}): Json => ({
  entity: { entity_class: 'proxy', metadata: { name: entity, namespace: 'default' } },
  check: { metadata: { name: check, namespace: 'default', labels }, status, executed: 100, output: 'out' },
  metadata: { namespace: 'default' },
});
const row = (entity: string, check: string, status: number, labels: Record<string, string> = {}) => ({
  namespace: 'default',
  entity,
  check,
  event: event(entity, check, status, labels),
});
const names = (events: Json[]) => events.map((e) => `${e.entity.metadata.name}/${e.check.metadata.name}`);

test("it is labelled 'sqlite' whichever engine holds it, and a batch is written in one call of the transaction it is given", async (t) => {
  const store = sqliteStore(t);
  let transactions = 0;
  const events = new EmbeddedEventStore(store.resources, (fn) => {
    transactions++;
    store.transaction(fn);
  });
  assert.equal(events.label, 'sqlite');
  await events.putMany([row('b', 'cpu', 0), row('a', 'cpu', 1), row('a', 'cpu', 2)]);
  assert.equal(transactions, 1);
  assert.deepEqual(names(await events.list({ namespace: 'default' })), ['a/cpu', 'b/cpu']);
  assert.equal((await events.get('default', 'a', 'cpu'))!.check!.status, 2, 'the last row of a key wins');
  assert.equal(events.getSync('default', 'a', 'disk'), null);
});

test('a batch whose transaction fails writes none of it', async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources, (fn) =>
    store.transaction(() => {
      fn();
      throw new Error('the commit failed');
    }),
  );
  await assert.rejects(events.putMany([row('a', 'cpu', 0)]), /the commit failed/);
  assert.deepEqual(await events.list({ namespace: null }), []);
});

test('selectors match the redacted event, and the events listed are as stored', async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  events.putManySync([row('a', 'cpu', 0, { password: 'hunter2', team: 'ops' }), row('b', 'cpu', 2, { team: 'web' }), row('c', 'disk', 2)]);
  const list = (fields?: string, labels?: string) =>
    events.list({ namespace: 'default', ...(fields ? { fields: parseSelector(fields) } : {}), ...(labels ? { labels: parseSelector(labels) } : {}) });
  assert.deepEqual(names(await list('event.check.status == 2')), ['b/cpu', 'c/disk']);
  assert.deepEqual(names(await list(undefined, 'team in [ops, web]')), ['a/cpu', 'b/cpu']);
  assert.deepEqual(names(await list('event.check.status == 2', 'team == web')), ['b/cpu']);
  // A secret is not found by its value, only as redacted.
  assert.deepEqual(names(await list(undefined, 'password == hunter2')), []);
  const [found] = await list(undefined, 'password == REDACTED');
  assert.equal(found!.check!.metadata!.labels!.password, 'hunter2');
  assert.deepEqual(names(await events.list({ namespace: 'default', entity: 'b' })), ['b/cpu']);
});

test('an update counts occurrences from the stored event and is stored; hasEvents and delete answer per namespace', async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  assert.equal(await events.hasEvents('default'), false);
  const first = await events.update(row('a', 'cpu', 2), 100);
  const second = await events.update(
    { ...row('a', 'cpu', 2), event: { ...event('a', 'cpu', 2), check: { ...event('a', 'cpu', 2).check, executed: 160 } } },
    160,
  );
  assert.equal(first.check!.occurrences, 1);
  assert.equal(second.check!.occurrences, 2);
  assert.deepEqual(
    second.check!.history!.map((h: Json) => [h.status, h.executed]),
    [
      [2, 100],
      [2, 160],
    ],
  );
  assert.deepEqual(await events.get('default', 'a', 'cpu'), second);
  assert.equal(await events.hasEvents('default'), true);
  assert.equal(await events.hasEvents('other'), false);
  assert.equal(await events.delete('default', 'a', 'cpu'), true);
  assert.equal(await events.delete('default', 'a', 'cpu'), false);
  assert.equal(await events.hasEvents('default'), false);
});

test('an update given the previous state builds on it instead of the stored one; an owned event is updated in place', (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  events.updateSync(row('a', 'cpu', 2), 100);
  const fresh = events.updateSync(row('a', 'cpu', 2), 100, { previous: null });
  assert.equal(fresh.check!.occurrences, 1, 'no previous state: a first event');
  const owned = row('a', 'cpu', 0);
  const updated = events.updateSync(owned, 100, { owned: true });
  assert.equal(updated, owned.event);
  assert.equal(owned.event.check.history.length, 2);
});
