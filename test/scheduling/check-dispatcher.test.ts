// The one check dispatcher under the legacy and v2 schedulers: holds and terms, the leadership check, splayed
// delivery, round-robin rings; and both schedulers spreading a proxy fan-out by the same splay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { ManualClock } from '../../src/schedule/clock.js';
import { splayStepMs } from '../../src/schedule/splay.js';
import { CheckDispatcher, type Delivery } from '../../src/scheduling/check-dispatcher.js';
import { CheckRequestPublisher } from '../../src/scheduling/check-request-publisher.js';
import { CheckRequestTargets } from '../../src/scheduling/check-request-targets.js';
import { V2CheckScheduler } from '../../src/scheduling/v2-check-scheduler.js';
import type { CheckConfigSource } from '../../src/scheduling/v2-check-config.js';
import type { ResourceOf } from '../../src/store/index.js';
import { InProcessTransport } from '../../src/transport/index.js';
import { createLogger } from '../../src/log.js';
import { settingsOf } from '../helpers/settings.js';

const logger = createLogger('silent');
const T0 = Date.parse('2026-11-18T12:00:00.000Z');

function dispatcherWith(options: { scheduling?: boolean; leading?: () => boolean } = {}) {
  const clock = new ManualClock(T0);
  const fired: string[] = [];
  const dispatcher = new CheckDispatcher({ clock, log: logger, ...options, fire: (key) => fired.push(key) });
  return { clock, fired, dispatcher };
}

/** A delivery recording where each request went: `*sub` a broadcast, `sub→member` a turn. */
function recording(rings: Record<string, string[]>, sent: string[]): Delivery<string> {
  return {
    ring: (subscription) => rings[subscription] ?? null,
    broadcast: (subscription) => void sent.push(`*${subscription}`),
    send: (subscription, member) => void sent.push(`${subscription}→${member}`),
  };
}

test('splay: n requests spread over coverage% of the spread, 90% unless set; none without splay or a spread', () => {
  assert.equal(splayStepMs(3, 60, true, 90), 18_000);
  assert.equal(splayStepMs(3, 60, true, undefined), 18_000);
  assert.equal(splayStepMs(4, 60, true, 50), 7_500);
  assert.equal(splayStepMs(3, 60, false, 90), 0);
  assert.equal(splayStepMs(0, 60, true, 90), 0);
  assert.equal(splayStepMs(3, 0, true, 90), 0);
});

test('holds: timers armed only while nothing holds; resume says when the last hold is lifted; a pause drops delayed sends armed before it', () => {
  const { clock, fired, dispatcher } = dispatcherWith({ scheduling: false });
  assert.equal(dispatcher.held, true, 'not elected at start');
  assert.equal(dispatcher.resume('broker away'), false, 'a hold not held lifts nothing');
  assert.equal(dispatcher.resume('not elected'), true);
  dispatcher.arm('disk', { kind: 'interval', intervalMs: 10_000, key: 'disk' });
  const sent: number[] = [];
  dispatcher.deliverAfter(T0, 0, dispatcher.inTerm(), (at) => sent.push(at));
  dispatcher.deliverAfter(T0, 5_000, dispatcher.inTerm(), (at) => sent.push(at));
  clock.advanceBy(10_000);
  assert.deepEqual(sent, [T0, T0 + 5_000]);
  assert.equal(fired.length, 1);

  dispatcher.deliverAfter(clock.now(), 5_000, dispatcher.inTerm(), (at) => sent.push(at));
  dispatcher.pause('not elected');
  dispatcher.pause('broker away');
  assert.deepEqual(dispatcher.armed(), []);
  assert.equal(dispatcher.resume('not elected'), false, 'the broker still away');
  assert.equal(dispatcher.resume('broker away'), true);
  clock.advanceBy(60_000);
  assert.deepEqual(sent, [T0, T0 + 5_000], 'the send armed before the pause is dropped, even after resume');
  assert.equal(fired.length, 1, 'nothing re-armed until the scheduler arms again');
});

test('leadership: a request firing while it is not confirmed is skipped', () => {
  let leader = false;
  const { dispatcher } = dispatcherWith({ leading: () => leader });
  assert.equal(dispatcher.leads({ check: 'disk' }), false);
  leader = true;
  assert.equal(dispatcher.leads({ check: 'disk' }), true);
  assert.equal(dispatcherWith().dispatcher.leads({ check: 'disk' }), true, 'a single server always leads');
});

test('round robin: one ring per check and subscription, in turn; an empty ring sends nothing; a forgotten check starts again', () => {
  const { dispatcher } = dispatcherWith();
  const sent: string[] = [];
  const delivery = recording({ pollers: ['a', 'b', 'c'], none: [] }, sent);
  for (let i = 0; i < 4; i++) dispatcher.deliver('disk', ['web', 'pollers', 'none'], delivery, { check: 'disk' }, 0);
  dispatcher.deliver('cpu', ['pollers'], delivery, { check: 'cpu' }, 0);
  assert.deepEqual(sent, ['*web', 'pollers→a', '*web', 'pollers→b', '*web', 'pollers→c', '*web', 'pollers→a', 'pollers→a']);
  sent.length = 0;
  dispatcher.forgetRings((check) => check === 'disk');
  dispatcher.deliver('disk', ['pollers'], delivery, { check: 'disk' }, 0);
  dispatcher.deliver('cpu', ['pollers'], delivery, { check: 'cpu' }, 0);
  assert.deepEqual(sent, ['pollers→a', 'pollers→b']);
});

test('a subscription listed more than once is delivered to once: a broadcast once, one turn of its ring', () => {
  const { dispatcher } = dispatcherWith();
  const sent: string[] = [];
  const delivery = recording({ pollers: ['a', 'b', 'c'] }, sent);
  dispatcher.deliver('disk', ['web', 'pollers', 'web', 'pollers', ...Array<string>(50_000).fill('web')], delivery, { check: 'disk' }, 0);
  assert.deepEqual(sent, ['*web', 'pollers→a']);
});

test('the legacy and v2 schedulers spread a proxy fan-out alike: interval 60, coverage 90, 3 targets 0, 18, 36 s after the instant', async () => {
  const names = ['switch-1', 'switch-2', 'switch-3'];
  // Each request's issued instant (whole seconds: the offsets are whole seconds too).
  // Legacy: proxy clients matched by client_attributes.
  const legacyClock = new ManualClock(T0);
  const transport = new InProcessTransport();
  const legacyAt: number[] = [];
  transport.subscribe('proxies', 'observer', (request) => void legacyAt.push(Number(request.issued) * 1000));
  const publisher = new CheckRequestPublisher({
    clock: legacyClock,
    transport,
    registry: { all: () => names.map((name) => ({ name, type: 'switch' })) },
    logger,
    zone: 'UTC',
  });
  publisher.apply(
    settingsOf({
      checks: { ping: { command: 'ping', interval: 60, subscribers: ['proxies'], proxy_requests: { client_attributes: { type: 'switch' }, splay: true } } },
    }),
  );
  // v2: every proxy entity of the namespace (no entity_attributes).
  const v2Clock = new ManualClock(T0);
  const config = {
    metadata: { name: 'ping', namespace: 'default' },
    command: 'ping',
    interval: 60,
    publish: true,
    subscriptions: ['proxies'],
    proxy_requests: { splay: true, splay_coverage: 90 },
  };
  const resources: CheckConfigSource = {
    namespacesWith: () => ['default'],
    // The one CheckConfig, whatever kind is asked for in a list (the scheduler lists CheckConfigs alone).
    listResources: <K extends string>() => [config as ResourceOf<K>],
    getResource: <K extends string>(kind: K) => (kind === 'CheckConfig' ? (config as ResourceOf<K>) : null),
    listEntities: () => names.map((name) => ({ metadata: { name, namespace: 'default' }, entity_class: 'proxy' })),
    resourceGeneration: 1,
  };
  const targets = new CheckRequestTargets();
  const v2At: number[] = [];
  targets.register({ kind: 'recorded', members: () => [], broadcast: (_ns, _sub, request) => void v2At.push(request.issued * 1000), send: () => undefined });
  const scheduler = new V2CheckScheduler({ clock: v2Clock, resources, targets, logger });
  scheduler.sync();

  legacyClock.advanceBy(100_000);
  v2Clock.advanceBy(100_000);
  await tick();
  const offsets = (at: number[]) => at.slice(0, 3).map((t) => t - at[0]!);
  assert.deepEqual(offsets(legacyAt), [0, 18_000, 36_000]);
  assert.deepEqual(offsets(v2At), [0, 18_000, 36_000]);
  publisher.stop();
  scheduler.stop();
});
