// A group commit's rows on PostgreSQL: the keys they are held by, and the writes not yet sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchRows, pairKey, v2Key } from '../../../src/store/postgres/batch-rows.js';

test('v2 keys are length-prefixed: no two tuples share one, whatever their names hold', () => {
  assert.equal(v2Key('default', 'web-1', 'disk'), '7:default5:web-14:disk');
  const tuples = [
    ['ab', 'c'],
    ['a', 'bc'],
    ['a:b', 'c'],
    ['1:a', ''],
    ['', '1:a'],
    ['a', 'b', 'c'],
    ['a', 'b\u0000c'],
  ];
  assert.equal(new Set(tuples.map((parts) => v2Key(...parts))).size, tuples.length);
});

test('pair keys keep client and check apart', () => {
  assert.notEqual(pairKey('web-1', 'disk'), pairKey('web-1d', 'isk'));
  assert.equal(pairKey('web-1', 'disk'), pairKey('web-1', 'disk'));
});

test('pending writes count each key once across their tables, and clear empties them all', () => {
  const rows = new BatchRows();
  assert.equal(rows.pending.size, 0);
  rows.pending.clients.set('web-1', ['web-1']);
  rows.pending.results.set(pairKey('web-1', 'disk'), ['web-1', 'disk']);
  rows.pending.results.set(pairKey('web-1', 'disk'), ['web-1', 'disk']);
  rows.pending.events.set(pairKey('web-1', 'disk'), ['web-1', 'disk']);
  rows.pending.v2Entities.set(v2Key('default', 'web-1'), ['default', 'web-1']);
  rows.pending.v2Events.set(v2Key('default', 'web-1', 'disk'), ['default', 'web-1', 'disk']);
  assert.equal(rows.pending.size, 5, 'a key written twice is sent once');
  rows.pending.clear();
  assert.equal(rows.pending.size, 0);
  assert.deepEqual(
    [rows.pending.clients, rows.pending.results, rows.pending.events, rows.pending.v2Entities, rows.pending.v2Events].map((m) => m.size),
    [0, 0, 0, 0, 0],
  );
});

test('each batch holds rows of its own', () => {
  const one = new BatchRows();
  const two = new BatchRows();
  one.clients.set('web-1', null);
  one.pending.clients.set('web-1', ['web-1']);
  assert.equal(two.clients.size, 0);
  assert.equal(two.pending.size, 0);
});
