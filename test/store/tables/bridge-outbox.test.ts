// The bridge's outbox on both engines: rows leave only when delivered or dead-lettered, in order per entity/check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import { postgresStore, sqliteStore } from '../../helpers/both-engines.js';

function outbox(store: StateStore): void {
  try {
    const box = store.outbox;
    assert.deepEqual(box.stats(0), { depth: 0, oldest_age_s: 0, delivered: 0, dead_lettered: 0 });
    const [a1, b1, a2] = store.transaction(() => [
      box.add('default', 'web-1', 'disk', '{"n":1}', 1_000),
      box.add('default', 'web-2', 'disk', '{"n":2}', 2_000),
      box.add('default', 'web-1', 'disk', '{"n":3}', 3_000),
    ]);
    assert.ok(a1! < b1! && b1! < a2!, 'sequences rise');
    assert.deepEqual(
      box.heads(10).map((row) => [row.seq, row.entity, row.body, Number(row.enqueuedAt)]),
      [
        [a1, 'web-1', '{"n":1}', 1_000],
        [b1, 'web-2', '{"n":2}', 2_000],
      ],
      'the oldest row of each entity/check only',
    );
    assert.equal(box.heads(1).length, 1);
    assert.deepEqual(box.stats(11_400), { depth: 3, oldest_age_s: 10, delivered: 0, dead_lettered: 0 });
    box.delivered(a1!);
    assert.deepEqual(
      box.heads(10).map((row) => row.seq),
      [b1, a2],
      'the next of web-1 is its head once the first is delivered',
    );
    box.deadLetter(box.heads(10)[0]!, 400, 'bad request', 5_000);
    assert.deepEqual(
      box.deadLetters().map((d) => [d.seq, d.entity, d.check, d.body, d.status, d.message, Number(d.failedAt)]),
      [[b1, 'web-2', 'disk', '{"n":2}', 400, 'bad request', 5_000]],
    );
    box.delivered(a2!);
    assert.deepEqual(box.stats(6_000), { depth: 0, oldest_age_s: 0, delivered: 2, dead_lettered: 1 });
  } finally {
    store.close();
  }
}

test('sqlite: the outbox keeps order per entity/check, counts what was delivered and dead-lettered', () => outbox(sqliteStore()));

test('postgres: the same outbox in the shared store', async (t) => {
  const store = await postgresStore(t, 'outbox');
  if (store) outbox(store);
});
