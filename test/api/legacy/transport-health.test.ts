import { test } from 'node:test';
import assert from 'node:assert/strict';
import { healthFailures } from '../../../src/api/legacy/transport-health.js';
import type { TransportInfo } from '../../../src/transport/index.js';

const broker = (
  keepalives: { consumers: number | null; messages: number | null },
  results: { consumers: number | null; messages: number | null },
): TransportInfo => ({
  name: 'rabbitmq',
  connected: true,
  keepalives,
  results,
});

test('health: a disconnected transport is the one failure, whatever was asked', () => {
  assert.deepEqual(healthFailures({ name: 'rabbitmq', connected: false }, { consumers: '1', messages: '0' }), ['not connected to transport']);
});

test('health: a connected transport with nothing asked has no failures', () => {
  assert.deepEqual(healthFailures(broker({ consumers: 0, messages: 99 }, { consumers: 0, messages: 99 }), {}), []);
});

test('health: consumers below `consumers` and messages above `messages` are named per queue', () => {
  const info = broker({ consumers: 1, messages: 10 }, { consumers: 3, messages: 2 });
  assert.deepEqual(healthFailures(info, { consumers: '2', messages: '5' }), [
    'keepalive consumers (1) less than min_consumers (2)',
    'keepalive messages (10) greater than max_messages (5)',
  ]);
  assert.deepEqual(healthFailures(info, { consumers: '3' }), ['keepalive consumers (1) less than min_consumers (3)']);
  assert.deepEqual(healthFailures(info, { consumers: '1', messages: '10' }), [], 'the bounds are inclusive');
});

test('health: unknown figures count as 0; a non-numeric bound is ignored', () => {
  const info = broker({ consumers: null, messages: null }, { consumers: null, messages: null });
  assert.deepEqual(healthFailures(info, { consumers: '1', messages: '0' }), [
    'keepalive consumers (0) less than min_consumers (1)',
    'result consumers (0) less than min_consumers (1)',
  ]);
  assert.deepEqual(healthFailures(info, { consumers: 'many', messages: 'few' }), []);
});

test('health: the in-process bus (no queue figures) passes any bound', () => {
  assert.deepEqual(healthFailures({ name: 'in-process', connected: true }, { consumers: '5', messages: '0' }), []);
});
