// What leaves the intake: a stored v2 event is told apart from a processed legacy result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isV2Event, type IntakeEvent, type StoredV2Event } from '../../src/intake/intake-types.js';

test('a stored v2 event is a v2 event; a processed legacy result is not', () => {
  const v2: IntakeEvent = { kind: 'v2', namespace: 'default', event: { check: { metadata: { name: 'c' } } } as StoredV2Event['event'] };
  assert.equal(isV2Event(v2), true);
  const legacy = { event: { client: { name: 'web' }, check: { name: 'disk' } }, handle: true } as unknown as IntakeEvent;
  assert.equal(isV2Event(legacy), false);
});
