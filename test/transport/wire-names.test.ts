// The names the legacy transports use on the wire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientQueueName } from '../../src/transport/wire-names.js';

test('the client queue name is <name>-1.9.0-<start epoch seconds>', () => {
  assert.equal(clientQueueName('web-01', 1_795_394_165_999), 'web-01-1.9.0-1795394165');
});
