// What the store interface's module holds of its own: GroupRetry, the signal that a group commit runs again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GroupRetry } from '../../src/store/state-store.js';

test('a GroupRetry carries the failure that caused it, as its cause, and says the group runs again', () => {
  const failure = new Error('UNIQUE constraint failed');
  const retry = new GroupRetry(failure);
  assert.ok(retry instanceof Error);
  assert.equal(retry.failure, failure);
  assert.equal(retry.cause, failure);
  assert.equal(retry.message, 'a result failed: the group commit runs again with a savepoint per result');
});
