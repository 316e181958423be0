// The two ways a door takes an Event in: decoded as Sensu Go's API does (unknown fields dropped, Go's message), or typed
// as sent (unknown fields kept, the field named); either refuses a field of the wrong type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEvent, typedEvent } from '../../src/v2/index.js';

const event = { entity: { metadata: { name: 'web' } }, check: { metadata: { name: 'http' }, status: 1, extra: 'kept?' }, unknown: 1 };

test('decodeEvent: the API door drops unknown fields and answers a wrong type as Sensu Go does', () => {
  const { value, problem } = decodeEvent(event);
  assert.equal(problem, null);
  assert.deepEqual(value, { entity: { metadata: { name: 'web' } }, check: { metadata: { name: 'http' }, status: 1 } });
  assert.equal(decodeEvent({ check: { status: 'bad' } }).problem, 'json: cannot unmarshal string into Go struct field Check.check.status of type uint32');
  assert.match(String(decodeEvent('x').problem), /cannot unmarshal string into Go value of type v2.Event/);
});

test('typedEvent: the agent door keeps the body as sent and names the ill-typed field', () => {
  const { value, problem } = typedEvent(event);
  assert.equal(problem, null);
  assert.equal(value, event, 'the same object, not a copy');
  assert.equal(typedEvent({ check: { handlers: { x: 1 } } }).problem, 'event.check.handlers must be a list of strings');
  assert.equal(typedEvent({ check: { status: 'bad' } }).value, null);
});
