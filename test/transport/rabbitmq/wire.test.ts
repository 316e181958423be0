// The legacy RabbitMQ flags: exactly what legacy peers declare, or the broker answers 406 and they reconnect forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXCHANGE_FLAGS, MESSAGE_PROPERTIES, QUEUE_FLAGS, exchangeFlags, isPredeclared } from '../../../src/transport/rabbitmq/wire.js';

test('queues, exchanges and messages carry the legacy flags', () => {
  assert.deepEqual(QUEUE_FLAGS, { durable: false, exclusive: false, autoDelete: true });
  assert.deepEqual(EXCHANGE_FLAGS, { durable: false, autoDelete: false, internal: false });
  assert.deepEqual(MESSAGE_PROPERTIES, { contentType: 'application/octet-stream', deliveryMode: 1, priority: 0 });
});

test("a transport handler's pipe options are exchange flags in the AMQP gem's spelling", () => {
  assert.deepEqual(exchangeFlags(), { durable: false, autoDelete: false, internal: false });
  assert.deepEqual(exchangeFlags({ durable: true, auto_delete: true, internal: true, arguments: { 'alternate-exchange': 'ae' } }), {
    durable: true,
    autoDelete: true,
    internal: true,
    arguments: { 'alternate-exchange': 'ae' },
  });
  assert.deepEqual(
    exchangeFlags({ durable: 'true', autoDelete: true, arguments: 'x' }),
    { durable: false, autoDelete: false, internal: false },
    'only true is true',
  );
  assert.deepEqual(exchangeFlags(JSON.parse('{"__proto__": {"durable": true}}') as Record<string, unknown>), {
    durable: false,
    autoDelete: false,
    internal: false,
  });
});

test("the nameless exchange and amq.<type> of the pipe's own type are the broker's", () => {
  assert.equal(isPredeclared('direct', ''), true);
  assert.equal(isPredeclared('topic', 'amq.topic'), true);
  assert.equal(isPredeclared('fanout', 'amq.fanout'), true);
  assert.equal(isPredeclared('direct', 'amq.topic'), false);
  assert.equal(isPredeclared('topic', 'metrics'), false);
});
