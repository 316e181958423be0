// legacyTargets and legacyRequestOf: legacy clients as subscribers of v2 checks (who is a member, where requests are published) and the legacy request format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { legacyRequestOf, legacyTargets } from '../../src/scheduling/legacy-check-targets.js';
import type { V2CheckRequest } from '../../src/scheduling/check-request-targets.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { InProcessTransport, type CheckRequest } from '../../src/transport/index.js';

const NOW = Date.parse('2026-11-18T12:00:00.000Z');
const nowS = NOW / 1000;
const config = (extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'disk', namespace: 'ops' },
  command: 'check-disk',
  interval: 60,
  subscriptions: ['web'],
  handlers: ['mail'],
  timeout: 0,
  ttl: 0,
  stdin: false,
  runtime_assets: null,
  env_vars: null,
  secrets: null,
  output_metric_format: '',
  output_metric_handlers: null,
  low_flap_threshold: 0,
  high_flap_threshold: 0,
  check_hooks: null,
  ...extra,
});
const request = (c: Record<string, unknown>, hooks: Record<string, unknown>[] = []): V2CheckRequest => ({ config: c, hooks, assets: [], issued: nowS });

test('a v2 request in legacy form keeps what a legacy client runs; zero, empty and false fields are left out', () => {
  assert.deepEqual(legacyRequestOf(request(config())), {
    name: 'disk',
    command: 'check-disk',
    issued: nowS,
    interval: 60,
    subscribers: ['web'],
    handlers: ['mail'],
  });
  const full = legacyRequestOf(
    request(
      config({ interval: 0, cron: '0 9 * * *', timeout: 10, ttl: 120, stdin: true, proxy_entity_name: 'sw-1', env_vars: ['A=1'], runtime_assets: ['tools'] }),
    ),
  );
  assert.deepEqual(
    [full.interval, full.cron, full.timeout, full.ttl, full.stdin, full.source, full.env_vars, full.runtime_assets],
    [undefined, '0 9 * * *', 10, 120, true, 'sw-1', ['A=1'], ['tools']],
  );
  assert.equal('interval' in full, false);
});

test('hooks: one per severity, the first of its list that the request carries', () => {
  const hooks = [
    { metadata: { name: 'ps' }, command: 'ps aux', timeout: 5, stdin: false },
    { metadata: { name: 'df' }, command: 'df -h', timeout: 0, stdin: true },
  ];
  const legacy = legacyRequestOf(
    request(config({ check_hooks: [{ critical: ['missing', 'ps', 'df'] }, { critical: ['df'] }, { 'non-zero': ['df'] }] }), hooks),
  );
  // As the wire carries it (JSON): a hook's zero timeout and false stdin are left out.
  assert.deepEqual(JSON.parse(JSON.stringify(legacy.hooks)), { critical: { command: 'ps aux', timeout: 5 }, 'non-zero': { command: 'df -h', stdin: true } });
  assert.equal('hooks' in legacyRequestOf(request(config({ check_hooks: [{ critical: ['missing'] }] }))), false);
});

function setup(clients: Record<string, unknown>[], namespace = 'ops') {
  const transport = new InProcessTransport();
  const clock = new ManualClock(NOW);
  const targets = legacyTargets({ transport, clients: () => clients, namespace: () => namespace, clock });
  return { transport, clock, targets };
}

test('members: legacy clients of the namespace subscribed and not yet critical; entity:NAME is client:NAME; agents are not members', () => {
  const { targets, clock } = setup([
    { name: 'web-1', subscriptions: ['web', 'client:web-1'], timestamp: nowS - 10 },
    { name: 'web-2', subscriptions: ['web'], timestamp: nowS - 179 },
    { name: 'stale', subscriptions: ['web'], timestamp: nowS - 180 },
    { name: 'patient', subscriptions: ['web'], timestamp: nowS - 500, keepalive: { thresholds: { critical: 600 } } },
    { name: 'agent-1', subscriptions: ['web'], timestamp: nowS, entity_class: 'agent' },
    { name: 'db-1', subscriptions: ['db'], timestamp: nowS },
  ]);
  assert.equal(targets.kind, 'legacy');
  assert.deepEqual(targets.members('ops', 'web'), ['web-1', 'web-2', 'patient']);
  assert.deepEqual(targets.members('ops', 'entity:web-1'), ['web-1']);
  assert.deepEqual(targets.members('dev', 'web'), [], 'legacy clients serve one namespace');
  clock.advanceBy(2_000);
  assert.deepEqual(targets.members('ops', 'web'), ['web-1', 'patient'], 'web-2 has gone critical');
});

test('requests are published in legacy form to the subscription, or to one client; none for another namespace', async () => {
  const { transport, targets } = setup([]);
  const received: string[] = [];
  const record = (request: CheckRequest, subscription: string) => void received.push(`${subscription} ${request.name}`);
  transport.subscribe('web', 'web-1', record);
  transport.subscribe('client:web-1', 'web-1', record);
  targets.broadcast('ops', 'web', request(config()));
  targets.broadcast('ops', 'entity:web-1', request(config()));
  targets.send('ops', 'web-1', request(config({ metadata: { name: 'ping' } })));
  targets.broadcast('dev', 'web', request(config()));
  targets.send('dev', 'web-1', request(config()));
  await tick();
  assert.deepEqual(received.sort(), ['client:web-1 disk', 'client:web-1 ping', 'web disk']);
});
