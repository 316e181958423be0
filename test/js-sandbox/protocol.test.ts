// The shared control buffer between the daemon and its sandbox thread: one Int32 slot each, all inside the buffer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { READ, READY, REPLY, REQUEST, RETIRED, SLOTS, START_CPU, STARTED, TASK } from '../../src/js-sandbox/protocol.js';

test('every slot is its own and inside the buffer', () => {
  const slots = [REQUEST, REPLY, READY, TASK, STARTED, START_CPU, READ];
  assert.equal(new Set(slots).size, slots.length);
  for (const slot of slots) assert.ok(Number.isInteger(slot) && slot >= 0 && slot < SLOTS, String(slot));
  assert.equal(SLOTS, slots.length, 'no slot unused');
});

test('the retired state is neither loading (0) nor ready (1)', () => {
  assert.ok(![0, 1].includes(RETIRED));
  const control = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  Atomics.store(control, READY, RETIRED);
  assert.equal(Atomics.load(control, READY), RETIRED);
});
