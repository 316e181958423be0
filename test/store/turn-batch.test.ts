// The unit of group commit: what arrives in a turn (a few turns when it is small) goes over as one batch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TurnBatch } from '../../src/store/turn-batch.js';

test('eight or more submitted in one turn go over together in the next turn', async () => {
  const batches: number[][] = [];
  const batch = new TurnBatch<number>((items) => batches.push(items));
  for (let i = 0; i < 8; i++) batch.add(i);
  assert.deepEqual(batches, [], 'nothing is handed over in the turn that submitted it');
  await nextTurn();
  assert.deepEqual(batches, [[0, 1, 2, 3, 4, 5, 6, 7]]);
});

test('a small batch waits a few turns for company, then goes over with what joined it', async () => {
  const batches: number[][] = [];
  const batch = new TurnBatch<number>((items) => batches.push(items));
  batch.add(1);
  await nextTurn();
  batch.add(2);
  for (let turn = 0; turn < 10 && batches.length === 0; turn++) await nextTurn();
  assert.deepEqual(batches, [[1, 2]]);
});

test('flushed: resolves at once when nothing waits, else once what was added has been handed over', async () => {
  const batches: number[][] = [];
  const batch = new TurnBatch<number>((items) => batches.push(items));
  await batch.flushed();
  batch.add(1);
  await batch.flushed();
  assert.deepEqual(batches, [[1]]);
});
