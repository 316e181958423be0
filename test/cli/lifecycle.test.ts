import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lifecycle, STOP_GRACE_MS, type Service } from '../../src/cli/lifecycle.js';
import { capturedLogger } from '../helpers/log-capture.js';

/** A service that records its start and stop (with the deadline it was given) into `events`. */
function recorded(name: string, events: string[], deadlines: number[], failStart = false): Service {
  return {
    name,
    async start() {
      events.push(`start ${name}`);
      if (failStart) throw new Error(`${name} cannot start`);
    },
    async stop(deadline) {
      events.push(`stop ${name}`);
      deadlines.push(deadline);
    },
  };
}

test('services start in order and stop in reverse, all against the one deadline of one grace', async () => {
  const { logger, messages } = capturedLogger();
  const events: string[] = [];
  const deadlines: number[] = [];
  const lifecycle = new Lifecycle(logger, () => undefined);
  const before = Date.now();
  await lifecycle.start(['store', 'transport', 'watcher'].map((name) => recorded(name, events, deadlines)));
  assert.equal(lifecycle.isRunning(), true);
  await lifecycle.stop('SIGTERM');
  await lifecycle.stop('SIGINT');
  assert.deepEqual(events, ['start store', 'start transport', 'start watcher', 'stop watcher', 'stop transport', 'stop store']);
  assert.equal(new Set(deadlines).size, 1, 'one deadline for every service');
  assert.ok(deadlines[0]! >= before + STOP_GRACE_MS && deadlines[0]! <= Date.now() + STOP_GRACE_MS);
  assert.deepEqual(messages().filter((m) => m === 'stopping' || m === 'stopped'), ['stopping', 'stopped'], 'a second stop does nothing');
});

test('a failed start-up stops every service in reverse, the failed one and those never started included, and rethrows', async () => {
  const { logger } = capturedLogger();
  const events: string[] = [];
  const lifecycle = new Lifecycle(logger, () => undefined);
  const services = [recorded('store', events, []), recorded('api', events, [], true), recorded('watcher', events, [])];
  await assert.rejects(lifecycle.start(services), /api cannot start/);
  assert.equal(lifecycle.isRunning(), false);
  assert.equal(lifecycle.isStopping(), true);
  assert.deepEqual(events, ['start store', 'start api', 'stop watcher', 'stop api', 'stop store']);
});

test('a service that fails to stop is logged and the others still stop', async () => {
  const { logger, lines } = capturedLogger();
  const events: string[] = [];
  const broken: Service = { name: 'broken', start: async () => undefined, stop: async () => Promise.reject(new Error('stuck')) };
  const lifecycle = new Lifecycle(logger, () => undefined);
  await lifecycle.start([recorded('store', events, []), broken, recorded('watcher', events, [])]);
  await lifecycle.stop('SIGTERM');
  assert.deepEqual(events, ['start store', 'start watcher', 'stop watcher', 'stop store']);
  assert.ok(lines.some((l) => l.msg === 'stopping failed' && l.service === 'broken'));
});
