// The rows a server's group commits read or wrote lately, each with its version: bounded, the oldest dropped first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RowCache } from '../../../src/store/postgres/row-cache.js';

test('a row is kept per table and key with its version; a later write replaces it, drop forgets it', () => {
  const cache = new RowCache();
  cache.set('clients', 'web-1', '{"name":"web-1"}', '100');
  cache.set('events', 'web-1', null, '');
  assert.equal(cache.get('clients', 'web-1')!.value, '{"name":"web-1"}');
  assert.equal(cache.get('clients', 'web-1')!.seen, '100');
  assert.equal(cache.get('events', 'web-1')!.value, null, 'a row known absent is kept as null');
  assert.equal(cache.get('events', 'web-1')!.seen, '');
  cache.set('clients', 'web-1', { name: 'web-1', version: 2 }, '101');
  assert.deepEqual([cache.get('clients', 'web-1')!.value, cache.get('clients', 'web-1')!.seen], [{ name: 'web-1', version: 2 }, '101']);
  cache.drop('clients', 'web-1');
  assert.equal(cache.get('clients', 'web-1'), undefined);
  cache.drop('clients', 'never-set');
  assert.equal(cache.get('events', 'web-1')!.seen, '', 'dropping one table’s key leaves the same key of another');
});

test('table and key cannot run together into another pair', () => {
  const cache = new RowCache();
  cache.set('ab', 'c', 'first', '1');
  assert.equal(cache.get('a', 'bc'), undefined);
});

test('no more than 50,000 rows: the oldest set goes first, a row set again counts as new', () => {
  const cache = new RowCache();
  for (let i = 0; i < 50_000; i++) cache.set('results', `k${i}`, 'v', String(i));
  cache.set('results', 'k0', 'v', 'again');
  cache.set('results', 'new', 'v', 'n');
  assert.equal(cache.get('results', 'k0')!.seen, 'again', 'set again, so no longer the oldest');
  assert.equal(cache.get('results', 'k1'), undefined, 'the oldest went');
  assert.equal(cache.get('results', 'k2')!.seen, '2');
  assert.equal(cache.get('results', 'new')!.seen, 'n');
});

test('no more than 64 MB of rows: large rows push the oldest out', () => {
  const cache = new RowCache();
  const big = 'x'.repeat(20_000_000); // 40 MB as the cache counts strings
  cache.set('events', 'a', 'small', '1');
  cache.set('events', 'b', big, '2');
  assert.equal(cache.get('events', 'a')!.seen, '1', 'under the bound, both kept');
  cache.set('events', 'c', big, '3');
  assert.equal(cache.get('events', 'a'), undefined);
  assert.equal(cache.get('events', 'b'), undefined);
  assert.equal(cache.get('events', 'c')!.seen, '3');
  cache.drop('events', 'c');
  cache.set('events', 'd', big, '4');
  cache.set('events', 'e', 'small', '5');
  assert.equal(cache.get('events', 'd')!.seen, '4', 'a dropped row no longer counts against the bound');
});
