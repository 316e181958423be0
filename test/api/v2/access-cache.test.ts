// The v2 access cache on real SQLite resource tables: an entry holds for one access generation, a bounded age and its token's life.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { accessCacheOf, decisionKey } from '../../../src/api/v2/access-cache.js';
import type { Caller } from '../../../src/api/v2/context.js';
import { sqliteStore as openStore } from '../../helpers/sqlite-store.js';

const NOW = 1_700_000_000_000;
const alice = { username: 'alice', groups: [] } as unknown as Caller;

/** The callers cache of a fresh store, read once so that it follows the store's current generation. */
function callersOf(t: TestContext) {
  const store = openStore(t);
  const callers = accessCacheOf(store.resources).callers;
  assert.equal(callers.get('token', NOW), undefined);
  return { store, callers };
}

test('each store has one cache, and caches of two stores are apart', (t) => {
  const one = openStore(t);
  const two = openStore(t);
  assert.equal(accessCacheOf(one.resources), accessCacheOf(one.resources));
  assert.notEqual(accessCacheOf(one.resources), accessCacheOf(two.resources));
});

test('an entry set in the current generation is served back', (t) => {
  const { store, callers } = callersOf(t);
  callers.set('token', alice, store.resources.accessGeneration, NOW);
  assert.equal(callers.get('token', NOW + 1), alice);
  assert.equal(callers.get('other', NOW + 1), undefined);
});

test('any write to users or resources ends every entry', (t) => {
  const { store, callers } = callersOf(t);
  callers.set('token', alice, store.resources.accessGeneration, NOW);
  store.resources.putUser('bob', { username: 'bob' });
  assert.equal(callers.get('token', NOW), undefined);
  callers.set('token', alice, store.resources.accessGeneration, NOW);
  assert.equal(callers.get('token', NOW), alice);
  store.resources.putResource('Role', 'default', 'r', { metadata: { name: 'r' } });
  assert.equal(callers.get('token', NOW), undefined);
});

test('a value computed before a write is not cached after it', (t) => {
  const { store, callers } = callersOf(t);
  const before = store.resources.accessGeneration;
  store.resources.deleteResource('Role', 'default', 'r');
  assert.equal(callers.get('token', NOW), undefined);
  callers.set('token', alice, before, NOW);
  assert.equal(callers.get('token', NOW), undefined);
});

test('an entry is served for less than thirty seconds, and not when the clock went back', (t) => {
  const { store, callers } = callersOf(t);
  callers.set('token', alice, store.resources.accessGeneration, NOW);
  assert.equal(callers.get('token', NOW + 29_999), alice);
  assert.equal(callers.get('token', NOW + 30_000), undefined);
  callers.set('token', alice, store.resources.accessGeneration, NOW);
  assert.equal(callers.get('token', NOW - 1), undefined);
});

test("an entry is not served at or after its token's expiry", (t) => {
  const { store, callers } = callersOf(t);
  const expS = NOW / 1000 + 10;
  callers.set('token', alice, store.resources.accessGeneration, NOW, expS);
  assert.equal(callers.get('token', expS * 1000 - 1), alice);
  assert.equal(callers.get('token', expS * 1000), undefined);
});

test('callers and decisions are cached apart', (t) => {
  const { store, callers } = callersOf(t);
  const { decisions } = accessCacheOf(store.resources);
  callers.set('k', alice, store.resources.accessGeneration, NOW);
  assert.equal(decisions.get('k', NOW), undefined);
});

test('decision keys differ whenever any input differs, however the strings are split', () => {
  const keys = [
    decisionKey('alice', ['ops'], 'get', 'checks', 'default', null),
    decisionKey('alice', ['ops'], 'get', 'checks', 'default', 'c1'),
    decisionKey('alice', ['ops'], 'get', 'checks', null, null),
    decisionKey('alice', ['ops', 'dev'], 'get', 'checks', 'default', null),
    decisionKey('alice', ['ops,dev'], 'get', 'checks', 'default', null),
    decisionKey('alice', [], 'list', 'checks', 'default', null),
    decisionKey('alice","ops', [], 'get', 'checks', 'default', null),
    decisionKey('bob', ['ops'], 'get', 'checks', 'default', null),
  ];
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(decisionKey('alice', ['ops'], 'get', 'checks', 'default', null), keys[0]);
});

test('a full cache is emptied before it takes a new entry, so it never grows past its bound', (t) => {
  const { store, callers } = callersOf(t);
  const generation = store.resources.accessGeneration;
  for (let i = 0; i < 10_000; i++) callers.set(`t${i}`, alice, generation, NOW);
  assert.equal(callers.get('t9999', NOW), alice);
  callers.set('one more', alice, generation, NOW);
  assert.equal(callers.get('t0', NOW), undefined);
  assert.equal(callers.get('one more', NOW), alice);
});
