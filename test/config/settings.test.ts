// Settings are frozen all the way down once built: nothing in the runtime can change what was loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATEGORIES, deepFreeze } from '../../src/config/settings.js';

test('deepFreeze freezes every object and array inside, and returns the same value', () => {
  const settings = { checks: { disk: { subscribers: ['linux'], hooks: { critical: { command: 'x' } } } }, n: 1 };
  assert.equal(deepFreeze(settings), settings);
  assert.ok(Object.isFrozen(settings));
  assert.ok(Object.isFrozen(settings.checks.disk.subscribers));
  assert.ok(Object.isFrozen(settings.checks.disk.hooks.critical));
  assert.throws(() => {
    (settings.checks.disk.subscribers as string[]).push('windows');
  }, TypeError);
  assert.equal(deepFreeze(null), null);
  assert.equal(deepFreeze('text'), 'text');
});

test('an object frozen already is left as it is, its insides included', () => {
  const inner = { a: 1 };
  const outer = Object.freeze({ inner });
  deepFreeze(outer);
  assert.equal(Object.isFrozen(inner), false);
});

test('the definition categories, in the order legacy loads them', () => {
  assert.deepEqual(CATEGORIES, ['checks', 'filters', 'mutators', 'handlers', 'extensions']);
});
