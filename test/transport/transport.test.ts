// The transport's shared rules: which subscriptions go to one consumer, how a broker publishes a request, and /info.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSharedQueue, isWire, publishRequest, transportInfo, type PipeType } from '../../src/transport/transport.js';
import { InProcessTransport } from '../../src/transport/in-process.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

test('roundrobin: and direct: subscriptions are shared queues; plain ones and other prefixes are fanouts', () => {
  assert.deepEqual(['roundrobin:web', 'direct:db', 'linux', 'client:web-01', 'roundrobin', ':roundrobin'].map(isSharedQueue), [
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});

/** The send of a broker, as publishRequest uses it: what it was given, and whether it was connected. */
function sender(connected: boolean) {
  const sent: [PipeType, string, string][] = [];
  return { sent, send: (type: PipeType, pipe: string, body: string) => (connected ? (sent.push([type, pipe, body]), true) : false) };
}

test('a request goes direct to a shared queue and fanout to a subscription, as JSON', () => {
  const { send, sent } = sender(true);
  const warnings: unknown[] = [];
  const log = { warn: (fields: object) => warnings.push(fields) };
  publishRequest({ send }, log, 'roundrobin:web', { name: 'disk', issued: 1 });
  publishRequest({ send }, log, 'linux', { name: 'cpu' });
  assert.deepEqual(sent, [
    ['direct', 'roundrobin:web', '{"name":"disk","issued":1}'],
    ['fanout', 'linux', '{"name":"cpu"}'],
  ]);
  assert.deepEqual(warnings, []);
});

test('a request that cannot go while the broker is away is said, with its subscription and check', () => {
  const { send } = sender(false);
  const warnings: [object, string][] = [];
  publishRequest({ send }, { warn: (fields, message) => warnings.push([fields, message]) }, 'linux', { name: 'cpu' });
  assert.deepEqual(warnings, [[{ subscription: 'linux', check: 'cpu' }, 'transport is not connected: check request not published']]);
});

test('/info of the in-process bus has no queues; of a broker not connected, both queues with unknown figures', async (t) => {
  const bus = new InProcessTransport();
  assert.equal(isWire(bus), false);
  assert.deepEqual(await transportInfo(bus), { name: 'in-process', connected: true });
  // Never started: not connected.
  const redis = new RedisTransport(redisOptions('redis://127.0.0.1:1'), capturedLogger().logger);
  t.after(() => redis.close());
  assert.equal(isWire(redis), true);
  const unknown = { messages: null, consumers: null };
  assert.deepEqual(await transportInfo(redis), { name: 'redis', connected: false, keepalives: unknown, results: unknown });
});
