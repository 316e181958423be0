import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { ManualClock } from '../../src/schedule/clock.js';
import { Scheduler } from '../../src/schedule/scheduler.js';
import { timingOf } from '../../src/schedule/plan.js';
import { CheckRequestPublisher } from '../../src/scheduling/check-request-publisher.js';
import { InProcessTransport, type CheckRequest } from '../../src/transport/index.js';
import { createLogger } from '../../src/log.js';
import { settingsOf } from '../helpers/settings.js';

const logger = createLogger('silent');
const T0 = Date.parse('2026-11-18T12:00:00.000Z'); // a Wednesday

test('interval jobs fire on their phase every interval, without drift', () => {
  const clock = new ManualClock(T0);
  const fired: number[] = [];
  const scheduler = new Scheduler(clock, (_name, at) => fired.push(at));
  const timing = { kind: 'interval' as const, intervalMs: 60_000, key: 'test' };
  scheduler.set('test', timing);
  clock.advanceBy(10 * 60_000);
  assert.equal(fired.length, 10);
  for (const at of fired) assert.equal((at - fired[0]!) % 60_000, 0);
  // phase: t ≡ H (mod interval), the legacy splay
  assert.equal(fired[0]! - T0, Number(((0x73d32146cd6b8f09n - BigInt(T0)) % 60_000n) + 60_000n) % 60_000);
});

test('cron jobs fire at each matching minute, strictly after now', () => {
  const clock = new ManualClock(T0);
  const fired: string[] = [];
  const scheduler = new Scheduler(clock, (_n, at) => fired.push(new Date(at).toISOString()));
  const settings = settingsOf({ checks: { c: { command: 'x', cron: 'CRON_TZ=UTC */15 * * * *', subscribers: [] } } });
  scheduler.set('c', timingOf(settings.checks.c!, 'me'));
  clock.advanceBy(60 * 60_000);
  assert.deepEqual(fired, ['2026-11-18T12:15:00.000Z', '2026-11-18T12:30:00.000Z', '2026-11-18T12:45:00.000Z', '2026-11-18T13:00:00.000Z']);
});

test('removing a job stops it; re-setting reschedules only that job', () => {
  const clock = new ManualClock(T0);
  const fired: string[] = [];
  const scheduler = new Scheduler(clock, (name) => fired.push(name));
  scheduler.set('a', { kind: 'interval', intervalMs: 1000, key: 'a' });
  scheduler.set('b', { kind: 'interval', intervalMs: 1000, key: 'b' });
  clock.advanceBy(3000);
  scheduler.remove('a');
  fired.length = 0;
  clock.advanceBy(3000);
  assert.deepEqual(fired, ['b', 'b', 'b']);
});

async function serverWith(config: Record<string, unknown>, clients: Record<string, unknown>[] = []) {
  const clock = new ManualClock(T0);
  const transport = new InProcessTransport();
  const registry = { all: () => clients };
  const server = new CheckRequestPublisher({ clock, transport, registry, logger, zone: 'UTC' });
  const received: { subscription: string; request: CheckRequest; at: number }[] = [];
  const settings = settingsOf(config);
  for (const subscription of ['web', 'db', 'roundrobin:pollers', 'proxies']) {
    transport.subscribe(subscription, 'observer', (request, sub) => received.push({ subscription: sub, request, at: clock.now() }));
  }
  server.apply(settings);
  return { clock, server, received, transport };
}

test('requests carry the definition minus subscribers and interval, plus issued, once per subscription', async () => {
  const { clock, received } = await serverWith({ checks: { disk: { command: 'df', interval: 60, subscribers: ['web', 'db'], custom: 1 } } });
  clock.advanceBy(60_000);
  await tick();
  assert.deepEqual(received.map((r) => r.subscription).sort(), ['db', 'web']);
  const request = received[0]!.request;
  assert.deepEqual(Object.keys(request).sort(), ['command', 'custom', 'issued', 'name']);
  assert.ok(Number.isInteger(request.issued) && request.issued! >= T0 / 1000 && request.issued! <= (T0 + 60_000) / 1000);
});

test('subdued instants publish nothing; publish false and standalone checks are not scheduled by the server', async () => {
  const { clock, received, server } = await serverWith({
    checks: {
      quiet: { command: 'x', interval: 60, subscribers: ['web'], subdue: { days: { all: [{ begin: '11:00 AM UTC', end: '1:00 PM UTC' }] } } },
      off: { command: 'x', interval: 60, subscribers: ['web'], publish: false },
      alone: { command: 'x', interval: 60, standalone: true },
    },
  });
  assert.deepEqual(server.scheduledChecks(), ['quiet']);
  clock.advanceBy(30 * 60_000);
  await tick();
  assert.equal(received.length, 0);
  clock.advanceTo(Date.parse('2026-11-18T13:10:00Z'));
  await tick();
  assert.ok(received.length >= 9, `expected requests after 13:00, got ${received.length}`);
});

test('proxy requests: interval 60, coverage 90, 3 matching clients are spread 0, 18, 36 s; source defaults to the client', async () => {
  const clients = [
    { name: 'switch-1', type: 'switch', port: 1 },
    { name: 'switch-2', type: 'switch', port: 2 },
    { name: 'server-1', type: 'server' },
    { name: 'switch-3', type: 'switch', port: 3 },
  ];
  const { clock, received } = await serverWith(
    {
      checks: {
        ping: { command: 'ping -p :::port:::', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' }, splay: true } },
      },
    },
    clients,
  );
  clock.advanceBy(100_000);
  await tick();
  const first = received[0]!.request.issued!;
  const wave = received.filter((r) => r.request.issued! < first + 60);
  assert.deepEqual(
    wave.map((r) => [r.request.source, r.request.command, (r.request.issued! - first) * 1000]),
    [
      ['switch-1', 'ping -p 1', 0],
      ['switch-2', 'ping -p 2', 18_000],
      ['switch-3', 'ping -p 3', 36_000],
    ],
  );
  assert.ok(wave.every((r) => 'proxy_requests' in r.request));
});

test('proxy requests: a client with unmatched tokens is skipped; empty client_attributes publishes nothing', async () => {
  const { clock, received } = await serverWith(
    {
      checks: {
        tok: { command: 'x :::missing:::', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' } } },
        none: { command: 'x', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: {} } },
      },
    },
    [
      { name: 's1', type: 'switch', missing: 'm' },
      { name: 's2', type: 'switch' },
    ],
  );
  clock.advanceBy(60_000);
  await tick();
  assert.deepEqual(
    received.map((r) => [r.request.name, r.request.source, r.request.command]),
    [['tok', 's1', 'x m']],
  );
});

test('roundrobin subscriptions deliver each request to exactly one consumer, in turn', async () => {
  const transport = new InProcessTransport();
  const got: string[] = [];
  transport.subscribe('roundrobin:pollers', 'a', () => got.push('a'));
  transport.subscribe('roundrobin:pollers', 'b', () => got.push('b'));
  transport.subscribe('web', 'a', () => got.push('web-a'));
  transport.subscribe('web', 'b', () => got.push('web-b'));
  for (let i = 0; i < 4; i++) transport.publish('roundrobin:pollers', { name: 'x' });
  transport.publish('web', { name: 'y' });
  await tick();
  await tick();
  assert.deepEqual(got.sort(), ['a', 'a', 'b', 'b', 'web-a', 'web-b']);
});

test('scheduling follows the election: kept settings but nothing published while not elected; a pause also drops splayed requests already armed', async () => {
  const clients = ['switch-1', 'switch-2', 'switch-3'].map((name, i) => ({ name, type: 'switch', port: i + 1 }));
  const config = {
    checks: {
      disk: { command: 'df', interval: 60, subscribers: ['web'] },
      ping: { command: 'ping -p :::port:::', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' }, splay: true } },
    },
  };
  const { clock, received, server } = await serverWith(config, clients);
  server.pause('not elected');
  assert.deepEqual(server.scheduledChecks(), []);
  server.apply(settingsOf(config)); // a reload while not elected
  clock.advanceBy(180_000);
  await tick();
  assert.equal(received.length, 0, 'not elected: nothing published');

  server.resume('not elected');
  assert.deepEqual(server.scheduledChecks().sort(), ['disk', 'ping']);
  // Elected: runs until the first proxy wave starts (its other requests are splayed 18 s and 36 s later).
  while (!received.some((r) => r.subscription === 'proxies')) {
    clock.advanceBy(1000);
    await tick();
  }
  assert.equal(received.filter((r) => r.subscription === 'proxies').length, 1);
  server.pause('not elected');
  const published = received.length;
  clock.advanceBy(180_000);
  await tick();
  assert.equal(received.length, published, 'demoted: nothing more, not even the rest of the splayed wave');

  server.resume('not elected');
  clock.advanceBy(120_000);
  await tick();
  assert.ok(
    received.filter((r) => r.subscription === 'web').length >= 2 && received.filter((r) => r.subscription === 'proxies').length >= 4,
    'elected again: both checks again',
  );
});
