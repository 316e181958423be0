// The legacy check_request_publisher: subscription checks scheduled on their interval and published to their
// subscribers (the definition without subscribers and interval, plus issued), on request through the API, proxy
// fan-outs per matching client, and nothing while held.
import { test } from 'node:test';
// The in-process bus delivers on the next turn: awaited as `delivered()`.
import { setImmediate as delivered } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { CheckRequestPublisher, requestOf } from '../../src/scheduling/check-request-publisher.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { InProcessTransport, type CheckRequest } from '../../src/transport/index.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

const T0 = Date.parse('2026-11-18T12:00:00.000Z');

function publisherOf(options: { scheduling?: boolean; clients?: Record<string, unknown>[] } = {}) {
  const clock = new ManualClock(T0);
  const transport = new InProcessTransport();
  const heard: [string, CheckRequest][] = [];
  for (const subscription of ['linux', 'web', 'proxies', 'roundrobin:pool'])
    transport.subscribe(subscription, 'recorder', (request, via) => heard.push([via, request]));
  const { logger, lines } = capturedLogger();
  const publisher = new CheckRequestPublisher({
    clock,
    transport,
    registry: { all: () => options.clients ?? [] },
    logger,
    zone: 'UTC',
    ...(options.scheduling === undefined ? {} : { scheduling: options.scheduling }),
  });
  return { clock, publisher, heard, lines };
}

const settings = settingsOf({
  checks: {
    disk: { command: 'check-disk', interval: 60, subscribers: ['linux', 'web'], occurrences: 2 },
    standalone: { command: 'true', interval: 60, standalone: true },
    unpublished: { command: 'true', interval: 60, subscribers: ['linux'], publish: false },
  },
});

test('a request is the definition without its subscribers and interval, issued in whole seconds', () => {
  assert.deepEqual(requestOf({ name: 'disk', command: 'c', subscribers: ['x'], interval: 60, handlers: ['h'] }, 1_500_999), {
    name: 'disk',
    command: 'c',
    handlers: ['h'],
    issued: 1500,
  });
});

test('subscription checks are scheduled (not standalone or unpublished ones) and published to each subscriber every interval', async () => {
  const { clock, publisher, heard } = publisherOf();
  publisher.apply(settings);
  assert.deepEqual(publisher.scheduledChecks(), ['disk']);
  clock.advanceBy(60_000);
  await delivered();
  assert.deepEqual(
    heard.map(([via, request]) => [via, request.name, request.command, request.occurrences]),
    [
      ['linux', 'disk', 'check-disk', 2],
      ['web', 'disk', 'check-disk', 2],
    ],
  );
  assert.equal(heard[0]![1].subscribers, undefined);
  clock.advanceBy(60_000);
  await delivered();
  assert.equal(heard.length, 4);
  assert.equal(heard[3]![1].issued! - heard[1]![1].issued!, 60);
});

test('while paused (not elected) nothing is published; resuming schedules the applied checks again', async () => {
  const { clock, publisher, heard } = publisherOf({ scheduling: false });
  publisher.apply(settings);
  assert.deepEqual(publisher.scheduledChecks(), []);
  clock.advanceBy(120_000);
  await delivered();
  assert.equal(heard.length, 0);
  publisher.resume('not elected');
  assert.deepEqual(publisher.scheduledChecks(), ['disk']);
  clock.advanceBy(60_000);
  await delivered();
  assert.equal(heard.length, 2);
  publisher.pause('broker away');
  clock.advanceBy(120_000);
  await delivered();
  assert.equal(heard.length, 2);
  publisher.stop();
});

test('an API request publishes at once, to the subscribers asked for, even for an unpublished check; an unknown check is refused', async () => {
  const { publisher, heard } = publisherOf();
  publisher.apply(settings);
  assert.equal(publisher.requestNow('nowhere', undefined, { user: 'admin' }), false);
  assert.equal(publisher.requestNow('unpublished', ['web'], { user: 'admin' }), true);
  await delivered();
  assert.deepEqual(
    heard.map(([via, request]) => [via, request.name, request.api_requested, request.issued]),
    [['web', 'unpublished', { user: 'admin' }, T0 / 1000]],
  );
});

test("a proxy check is requested once per matching client, with the client's attributes substituted into it", async () => {
  const clients = [
    { name: 'switch-1', address: '10.0.0.1', type: 'switch' },
    { name: 'switch-2', address: '10.0.0.2', type: 'switch' },
    { name: 'router-1', address: '10.0.0.3', type: 'router' },
  ];
  const { publisher, heard } = publisherOf({ clients });
  publisher.apply(
    settingsOf({
      checks: { ping: { command: 'ping :::address:::', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' } } } },
    }),
  );
  assert.equal(publisher.requestNow('ping', undefined, {}), true);
  await delivered();
  assert.deepEqual(
    heard.map(([via, request]) => [via, request.source, request.command]),
    [
      ['proxies', 'switch-1', 'ping 10.0.0.1'],
      ['proxies', 'switch-2', 'ping 10.0.0.2'],
    ],
  );
});
