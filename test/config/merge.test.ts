import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepMerge } from '../../src/config/merge.js';

test('objects merge recursively and scalars are replaced by the later file', () => {
  assert.deepEqual(deepMerge({ a: { b: 1, c: 2 }, d: 1 }, { a: { b: 3 }, d: 'x' }), { a: { b: 3, c: 2 }, d: 'x' });
});

test('arrays concatenate then de-duplicate (sensu/sensu#1325)', () => {
  assert.deepEqual(deepMerge({ s: ['rabbitmq'] }, { s: ['redis'] }), { s: ['rabbitmq', 'redis'] });
  assert.deepEqual(deepMerge({ s: ['a', 'a', 'b'] }, { s: ['b', 'c'] }), { s: ['a', 'b', 'c'] });
});

test('de-duplication compares by deep equality, whatever the key order', () => {
  assert.deepEqual(deepMerge({ s: [{ a: 1, b: 2 }] }, { s: [{ b: 2, a: 1 }, { a: 2 }] }), { s: [{ a: 1, b: 2 }, { a: 2 }] });
});

test('a type change replaces the value', () => {
  assert.deepEqual(deepMerge({ a: { b: 1 } }, { a: 'flat' }), { a: 'flat' });
  assert.deepEqual(deepMerge({ a: [1] }, { a: 5 }), { a: 5 });
  assert.deepEqual(deepMerge({ a: 5 }, { a: { b: 1 } }), { a: { b: 1 } });
});

test('merge does not mutate its inputs', () => {
  const base = { a: [1], b: { c: 1 } };
  deepMerge(base, { a: [2], b: { d: 2 } });
  assert.deepEqual(base, { a: [1], b: { c: 1 } });
});
