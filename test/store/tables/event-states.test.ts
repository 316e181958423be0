// The embedded store's held event states must answer every update exactly as reading the stored row back would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../../src/store/index.js';
import { EmbeddedEventStore } from '../../../src/store/tables/embedded-event-store.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

import type { Json } from '../../../src/json.js';

function openStore(t: { after(fn: () => void): void }): { store: StateStore; events: EmbeddedEventStore } {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'state', 'checkbridge.db'));
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  return { store, events: new EmbeddedEventStore(store.resources) };
}

const row = (status: number, executed: number, check: Json = {}) => ({
  namespace: 'default',
  entity: 'e',
  check: 'c',
  event: { entity: { metadata: { name: 'e' } }, check: { metadata: { name: 'c' }, status, executed, ...check }, id: `id-${executed}` },
});
const statuses = (event: Json | null) => (event?.check.history as { status: number }[]).map((h) => h.status);

test('an update rolled back leaves nothing behind for the next one', (t) => {
  const { store, events } = openStore(t);
  store.transaction(() => events.updateSync(row(0, 1), 1));
  assert.throws(() =>
    store.transaction(() => {
      events.updateSync(row(2, 2), 2);
      throw new Error('the rest of the transaction failed');
    }),
  );
  const updated = store.transaction(() => events.updateSync(row(1, 3), 3));
  assert.deepEqual(statuses(updated), [0, 1]);
  assert.deepEqual(statuses(store.resources.getEvent('default', 'e', 'c')), [0, 1]);
});

test('a deleted event starts again from its first write', (t) => {
  const { store, events } = openStore(t);
  events.updateSync(row(0, 1), 1);
  events.updateSync(row(1, 2), 2);
  assert.equal(store.resources.deleteEvent('default', 'e', 'c'), true);
  const updated = events.updateSync(row(2, 3), 3);
  assert.deepEqual(statuses(updated), [2]);
  assert.equal(updated.check!.occurrences, 1);
});

test('what a caller does to an event it was given does not reach the next update', (t) => {
  const { events } = openStore(t);
  const first = events.updateSync(row(0, 1), 1);
  first.check!.history![0].status = 99;
  first.check!.occurrences = 42;
  const second = events.updateSync(row(0, 2), 2);
  assert.deepEqual(statuses(second), [0, 0]);
  assert.equal(second.check!.occurrences, 2);
});

test('history entries with more than status and executed, and counters JSON cannot hold, read back as stored', (t) => {
  const { events } = openStore(t);
  // A client's first write keeps its own history; its occurrences ("many") counts to NaN, which is stored as null.
  events.updateSync(row(0, 2, { history: [{ status: 0, executed: 1, note: 'kept' }], occurrences: 'many' }), 2);
  const second = events.updateSync(row(0, 3), 3);
  assert.deepEqual(second.check!.history![0], { status: 0, executed: 1, note: 'kept' });
  // Stored null reads back as 0 occurrences, so this third equal status counts 1 (a NaN held in memory would stay NaN).
  assert.equal(second.check!.occurrences, 1);
});

test('the state held for an event is the one stored, when the store is reopened too', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const path = join(dir, 'state', 'checkbridge.db');
  const first = StateStore.open(path);
  new EmbeddedEventStore(first.resources).updateSync(row(1, 1), 1);
  first.close();
  const again = StateStore.open(path);
  t.after(() => again.close());
  const updated = new EmbeddedEventStore(again.resources).updateSync(row(1, 2), 2);
  assert.deepEqual(statuses(updated), [1, 1]);
  assert.equal(updated.check!.occurrences, 2);
});

test('history entries a client wrote with executed before status keep that order in later updates, as stored', (t) => {
  const { store, events } = openStore(t);
  events.updateSync(row(0, 2, { history: [{ executed: 1, status: 0 }] }), 2);
  events.updateSync(row(0, 3), 3);
  events.updateSync(row(0, 4), 4);
  // Read back from the row, the entry is {"executed":1,"status":0}: a held state must not reorder it.
  const stored = store.sqlite!.prepare("SELECT data FROM v2_events WHERE namespace = 'default' AND entity = 'e' AND check_name = 'c'").get() as {
    data: string;
  };
  assert.equal(JSON.stringify(JSON.parse(stored.data).check.history[0]), '{"executed":1,"status":0}');
});

test('updates answered from held states store exactly what updates reading every row back store (varied sequences)', (t) => {
  const held = openStore(t);
  const read = openStore(t);
  // A fixed pseudo-random sequence: the same run every time.
  let seed = 1;
  const pick = <T>(values: readonly T[]): T => values[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % values.length]!;
  const odd = [undefined, 0, 1, 2, -0, 1.5, 1e21, '3', null, 'x', true, [], {}];
  const histories = [
    [],
    [{ status: 0, executed: 1 }],
    [{ executed: 1, status: 2 }],
    [{ status: 1, executed: 2, note: 1 }],
    null,
    'h',
    [{ status: '1', executed: 1 }],
  ];
  const stored = (store: StateStore) => (store.sqlite!.prepare('SELECT data FROM v2_events').get() as { data: string } | undefined)?.data;
  for (let step = 0; step < 3000; step++) {
    const check: Json = { status: pick([0, 1, 2, 0, 1, '1', -0, 3.5]), executed: pick([step, step + 0.5, undefined, '7']) };
    if (pick([0, 1, 2, 3, 4]) === 0) check.history = pick(histories);
    for (const counter of ['occurrences', 'occurrences_watermark', 'last_ok']) if (pick([0, 1, 2, 3, 4, 5]) === 0) check[counter] = pick(odd);
    const next = row(0, 0, check);
    Object.assign(next.event, { id: pick(['a', 'b']), sequence: pick([undefined, 1, 2, '1', 0]) });
    if (pick(Array.from({ length: 15 }, (_, i) => i)) === 0) for (const { store } of [held, read]) store.resources.deleteEvent('default', 'e', 'c');
    read.store.resources.forgetEventStates();
    const updated = [held, read].map(({ events }) => events.updateSync(structuredClone(next), step));
    assert.deepEqual(updated[0], updated[1], `step ${step}`);
    assert.equal(stored(held.store), stored(read.store), `step ${step}`);
  }
});
