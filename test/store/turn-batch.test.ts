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

test('a batch in flight (a promise): the next forms meanwhile and goes over when it settles; flushed asked meanwhile waits for both', async () => {
  const batches: number[][] = [];
  const commits: (() => void)[] = [];
  const batch = new TurnBatch<number>((items) => (batches.push(items), new Promise<void>((resolve) => commits.push(resolve))));
  for (let i = 0; i < 8; i++) batch.add(i);
  await nextTurn();
  batch.add(8);
  let flushed = false;
  void batch.flushed().then(() => (flushed = true));
  for (let turn = 0; turn < 10; turn++) await nextTurn();
  assert.deepEqual(batches, [[0, 1, 2, 3, 4, 5, 6, 7]], 'one batch in flight at a time');
  commits.shift()!();
  for (let turn = 0; turn < 10 && batches.length < 2; turn++) await nextTurn();
  assert.deepEqual(batches[1], [8]);
  assert.equal(flushed, false, 'the second batch is still in flight');
  commits.shift()!();
  for (let turn = 0; turn < 10 && !flushed; turn++) await nextTurn();
  assert.equal(flushed, true);
  // Asked while a batch is in flight and nothing after it: answered once it settles.
  batch.add(9);
  for (let turn = 0; turn < 10 && commits.length === 0; turn++) await nextTurn();
  let second = false;
  void batch.flushed().then(() => (second = true));
  commits.shift()!();
  for (let turn = 0; turn < 10 && !second; turn++) await nextTurn();
  assert.equal(second, true);
});

test('two batches in flight when two may be: the second goes without waiting; flushed waits for the earlier one to settle too', async () => {
  const batches: number[][] = [];
  const commits = new Map<number, () => void>();
  const batch = new TurnBatch<number>(
    (items) => (batches.push(items), new Promise<void>((resolve) => commits.set(items[0]!, resolve))),
    () => 2,
  );
  for (let i = 0; i < 8; i++) batch.add(i);
  await nextTurn();
  for (let i = 8; i < 16; i++) batch.add(i);
  for (let turn = 0; turn < 10 && batches.length < 2; turn++) await nextTurn();
  assert.equal(batches.length, 2, 'the second batch is in flight beside the first');
  for (let i = 16; i < 24; i++) batch.add(i);
  for (let turn = 0; turn < 10; turn++) await nextTurn();
  assert.equal(batches.length, 2, 'a third waits: two are in flight');
  let flushed = false;
  void batch.flushed().then(() => (flushed = true));
  // The later batch settles first: what was added before it is not all committed yet.
  commits.get(8)!();
  for (let turn = 0; turn < 10 && batches.length < 3; turn++) await nextTurn();
  assert.deepEqual(batches[2], [16, 17, 18, 19, 20, 21, 22, 23], 'the third goes once one settles');
  assert.equal(flushed, false);
  commits.get(0)!();
  for (let turn = 0; turn < 10; turn++) await nextTurn();
  assert.equal(flushed, false, 'the third is still in flight');
  commits.get(16)!();
  for (let turn = 0; turn < 10 && !flushed; turn++) await nextTurn();
  assert.equal(flushed, true);
});
