// The backend's event update: history, state, occurrences and their watermark, last_ok, as Sensu Go keeps them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HISTORY_LENGTH, updateEvent, updateOwnedEvent } from '../../src/v2/event-update.js';
import type { Json } from '../../src/json.js';

/** The event stored after each of `statuses`, one a minute. */
function run(statuses: number[], check: Json = {}): Json[] {
  const stored: Json[] = [];
  statuses.forEach((status, i) => stored.push(updateEvent(stored.at(-1) ?? null, { check: { ...check, status, executed: 1000 + 60 * i } }, 5000 + i)));
  return stored;
}
const counters = (event: Json) => [event.check.state, event.check.occurrences, event.check.occurrences_watermark, event.check.last_ok];

test('occurrences count a run of one status; the watermark keeps the highest count of the incident', () => {
  const stored = run([0, 2, 2, 2, 1, 0, 2]);
  assert.deepEqual(stored.map(counters), [
    ['passing', 1, 1, 1000],
    ['failing', 1, 1, 1000],
    ['failing', 2, 2, 1000],
    ['failing', 3, 3, 1000],
    ['failing', 1, 3, 1000],
    ['passing', 1, 3, 1300],
    ['failing', 1, 1, 1300],
  ]);
});

test('the first write keeps the history and counters the client sent; the timestamp defaults to now', () => {
  const first: Json = updateEvent<Json>(
    null,
    { check: { status: 1, executed: 50, history: [{ status: 1, executed: 40 }], occurrences: 4, occurrences_watermark: 4 } },
    99,
  );
  assert.deepEqual(first.check.history, [
    { status: 1, executed: 40 },
    { status: 1, executed: 50 },
  ]);
  assert.deepEqual(counters(first), ['failing', 5, 5, undefined]);
  assert.equal(first.timestamp, 99);
  assert.equal(updateEvent(null, { timestamp: 7, check: { status: 0 } }, 99).timestamp, 7);
});

test('history keeps the last 21 results', () => {
  const stored = run(Array.from({ length: 30 }, (_, i) => i % 3));
  const history = stored.at(-1)!.check.history as { status: number; executed: number }[];
  assert.equal(HISTORY_LENGTH, 21);
  assert.equal(history.length, 21);
  assert.deepEqual(history.at(-1), { status: 29 % 3, executed: 1000 + 60 * 29 });
  assert.deepEqual(history[0], { status: 9 % 3, executed: 1000 + 60 * 9 });
});

test('flapping needs both thresholds: a changing check past the high one flaps, a steady one never', () => {
  const alternating = Array.from({ length: 21 }, (_, i) => (i % 2) * 2);
  const flapping = run(alternating, { low_flap_threshold: 5, high_flap_threshold: 20 }).at(-1)!;
  assert.equal(flapping.check.state, 'flapping');
  assert.ok(flapping.check.total_state_change >= 20);
  assert.equal(run(alternating, { high_flap_threshold: 20 }).at(-1)!.check.state, 'passing', 'without a low threshold');
  const steady = run(Array(21).fill(2), { low_flap_threshold: 5, high_flap_threshold: 20 }).at(-1)!;
  assert.deepEqual([steady.check.state, steady.check.total_state_change], ['failing', 0]);
});

test('updateEvent leaves its input as it was; updateOwnedEvent changes the one it is given', () => {
  const incoming = { check: { status: 2, executed: 10 } };
  const stored = updateEvent(null, incoming, 20);
  assert.deepEqual(incoming, { check: { status: 2, executed: 10 } });
  assert.notEqual(stored, incoming);
  const owned = { check: { status: 2, executed: 10 } } as Json;
  assert.equal(updateOwnedEvent(null, owned, 20), owned);
  assert.equal(owned.check.state, 'failing');
});
