// The Silenced kind: named by what it silences, timed as Sensu Go stores an entry, its writer recorded as creator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SILENCED } from '../../../src/api/v2/silenced.js';
import type { Silenced } from '../../../src/v2/index.js';

const NOW = 1_700_000_000;
const prepare = (s: Silenced) => SILENCED.prepare!(s, NOW, 'alice');

test('an entry is named subscription:check, with * for the part not given', () => {
  assert.equal(SILENCED.nameOf!({ subscription: 'linux', check: 'cpu' }), 'linux:cpu');
  assert.equal(SILENCED.nameOf!({ subscription: 'linux' }), 'linux:*');
  assert.equal(SILENCED.nameOf!({ check: 'cpu', subscription: '' }), '*:cpu');
});

test('begin defaults to now and the writer becomes the creator; without expire it never expires', () => {
  assert.deepEqual(prepare({ subscription: 'linux', creator: 'someone-else' }), { subscription: 'linux', begin: NOW, expire_at: 0, creator: 'alice' });
});

test('expire counts seconds from begin, a later begin included; an expire_at given is kept', () => {
  assert.equal(prepare({ check: 'cpu', expire: 60 })!.expire_at, NOW + 60);
  assert.equal(prepare({ check: 'cpu', begin: NOW + 100, expire: 60 })!.expire_at, NOW + 160);
  assert.equal(prepare({ check: 'cpu', expire: 60, expire_at: NOW + 5 })!.expire_at, NOW + 5);
  assert.equal(prepare({ check: 'cpu', expire: -1 })!.expire_at, 0, 'a negative expire does not expire');
});

test('an entry already expired is not stored', () => {
  assert.equal(prepare({ check: 'cpu', begin: NOW - 100, expire: 60 }), null);
  assert.equal(prepare({ check: 'cpu', expire_at: NOW }), null);
});

test('names take * and the entry must name a check or a subscription', () => {
  assert.equal(SILENCED.nameProblem!('*:cpu'), null);
  assert.notEqual(SILENCED.nameProblem!('a b'), null);
  assert.equal(SILENCED.validate({}), 'must provide check or subscription');
  assert.equal(SILENCED.validate({ check: 'cpu' }), null);
  assert.equal(SILENCED.path, 'silenced');
});
