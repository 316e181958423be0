// The licensed entity limit: when one more entity is refused, and the error it is refused with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atEntityLimit, EntityLimitError, entityLimitMessage } from '../../src/legacy/entity-limit.js';
import { CheckbridgeError } from '../../src/errors.js';

/** A store holding `count` entities that records what it was asked. */
function storeOf(count: number) {
  const asked: [number, string][] = [];
  return { asked, countEntities: (upTo: number, legacyNamespace: string) => (asked.push([upTo, legacyNamespace]), Math.min(count, upTo)) };
}

test('at the limit or past it one more is refused; below it, not; 0 is no limit and counts nothing', () => {
  assert.equal(atEntityLimit(storeOf(2), 3, 'default'), false);
  assert.equal(atEntityLimit(storeOf(3), 3, 'default'), true);
  assert.equal(atEntityLimit(storeOf(10), 3, 'default'), true);
  const unlimited = storeOf(1_000_000);
  assert.equal(atEntityLimit(unlimited, 0, 'default'), false);
  assert.deepEqual(unlimited.asked, [], 'no count without a limit');
  const counted = storeOf(1);
  atEntityLimit(counted, 5, 'legacy');
  assert.deepEqual(counted.asked, [[5, 'legacy']], 'counted only up to the limit, legacy clients in their namespace');
});

test('the error: CB_ENTITY_LIMIT with the message naming the limit and the setting that raises it', () => {
  const error = new EntityLimitError(entityLimitMessage(25));
  assert.ok(error instanceof CheckbridgeError);
  assert.equal(error.code, 'CB_ENTITY_LIMIT');
  assert.equal(
    error.message,
    'entity limit of 25 reached: no license for more entities; existing entities keep being monitored; raise or remove the limit with the setting checkbridge.entity_limit (0 for none)',
  );
});
