import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once, EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientRole, SAFE_MODE_OUTPUT } from '../../src/client/client-role.js';
import { LoggingIntake } from '../helpers/logging-intake.js';
import { InProcessTransport } from '../../src/transport/index.js';
import { ManualClock, systemClock } from '../../src/schedule/clock.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import type { CheckResult } from '../../src/execute/result.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

function clientWith(config: Record<string, unknown>, clock = systemClock) {
  const { logger, messages } = capturedLogger();
  const transport = new InProcessTransport();
  const intake = new LoggingIntake(logger);
  const results: CheckResult[] = [];
  const events = new EventEmitter();
  intake.onResult((r) => {
    results.push(r);
    events.emit('result', r);
  });
  const role = new ClientRole({ clock, transport, intake, run: spawnCommand, logger, zone: 'UTC' });
  role.apply(settingsOf(config));
  const nextResult = async () => (await once(events, 'result'))[0] as CheckResult;
  return { role, transport, results, messages, nextResult };
}

const client = { name: 'web01', address: '10.0.0.1', subscriptions: ['web'] };

test('subscribes to its subscriptions and client:<name>; runs what arrives', async (t) => {
  const { role, transport, nextResult } = clientWith({ client });
  t.after(() => role.stop());
  assert.deepEqual(role.subscriptions().sort(), ['client:web01', 'web']);
  const pending = nextResult();
  transport.publish('client:web01', { name: 'direct_one', command: 'echo :::name:::', issued: 1 });
  const result = await pending;
  assert.equal(result.check.output, 'web01\n');
});

test('a local definition overrides the request unless the request carries proxy_requests', async (t) => {
  const { role, transport, nextResult } = clientWith({ client, checks: { disk: { command: 'echo local', interval: 10, subscribers: ['web'], extra: 'x' } } });
  t.after(() => role.stop());
  let pending = nextResult();
  transport.publish('web', { name: 'disk', command: 'echo remote', issued: 1 });
  let result = await pending;
  assert.equal(result.check.output, 'local\n');
  assert.equal(result.check.extra, 'x');
  pending = nextResult();
  transport.publish('web', { name: 'disk', command: 'echo proxied', source: 'sw1', proxy_requests: { client_attributes: {} }, issued: 2 });
  result = await pending;
  assert.equal(result.check.output, 'proxied\n');
  assert.equal(result.check.source, 'sw1');
});

test('safe mode refuses checks not defined locally', async (t) => {
  const { role, transport, nextResult } = clientWith({ client: { ...client, safe_mode: true } });
  t.after(() => role.stop());
  const pending = nextResult();
  transport.publish('web', { name: 'rm_rf', command: 'echo should-not-run', issued: 1 });
  const result = await pending;
  assert.deepEqual([result.check.output, result.check.status, result.check.handle], [SAFE_MODE_OUTPUT, 3, false]);
});

test('a request for a check still running is dropped and logged; other sources run concurrently', async (t) => {
  const { role, results, messages } = clientWith({ client });
  t.after(() => role.stop());
  role.receive({ name: 'slow', command: 'sleep 0.4; echo done', issued: 1 });
  role.receive({ name: 'slow', command: 'sleep 0.4; echo done', issued: 2 });
  role.receive({ name: 'slow', source: 'other', command: 'sleep 0.4; echo other', issued: 2 });
  await sleep(50);
  assert.ok(messages().includes('check execution still in progress'));
  await role.stop();
  assert.deepEqual(results.map((r) => r.check.output).sort(), ['done\n', 'other\n']);
});

test('an older request and a duplicate request are dropped with the spec messages', async (t) => {
  const { role, results, messages } = clientWith({ client });
  t.after(() => role.stop());
  role.receive({ name: 'c', command: 'true', issued: 100 });
  await role.stop();
  role.apply(settingsOf({ client }));
  role.receive({ name: 'c', command: 'true', issued: 100 });
  role.receive({ name: 'c', command: 'true', issued: 99 });
  await role.stop();
  assert.equal(results.length, 1);
  assert.ok(messages().includes('check request was already received: the client has multiple matching subscriptions'));
  assert.ok(messages().includes('check request is older than one already received'));
});

test('an extension check without a command is logged as unknown, no result', async (t) => {
  const { role, results, messages } = clientWith({ client });
  t.after(() => role.stop());
  role.receive({ name: 'ext', extension: 'nope', issued: 1 });
  await role.stop();
  assert.equal(results.length, 0);
  assert.ok(messages().includes('unknown check extension'));
});

test('standalone checks run on their client splay and skip subdued instants', async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-18T12:00:00Z'));
  const { role, results, messages } = clientWith(
    {
      client,
      checks: {
        tick: { command: 'echo tick', standalone: true, interval: 60 },
        night: { command: 'echo night', standalone: true, interval: 60, subdue: { days: { all: [{ begin: '12:00 PM UTC', end: '1:00 PM UTC' }] } } },
      },
    },
    clock,
  );
  t.after(() => role.stop());
  assert.deepEqual(role.standaloneChecks().sort(), ['night', 'tick']);
  clock.advanceBy(60_000);
  await role.stop();
  assert.deepEqual(
    results.map((r) => r.check.name),
    ['tick'],
  );
  assert.ok(messages().includes('check execution was subdued'));
});
