import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lifecycle, STOP_GRACE_MS, type Service } from '../../src/cli/lifecycle.js';
import { FailureReport } from '../../src/service.js';
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
  assert.deepEqual(
    messages().filter((m) => m === 'stopping' || m === 'stopped'),
    ['stopping', 'stopped'],
    'a second stop does nothing',
  );
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

/** A recorded service that can report a failure after its start. */
function failing(name: string, events: string[]): Service & { fail(error: Error): void } {
  const report = new FailureReport();
  return { ...recorded(name, events, []), onFailure: (listener) => report.listen(listener), fail: (error) => report.fail(error) };
}

test('a service that fails after start is logged, every service stops in reverse, and the daemon exits non-zero', { timeout: 10_000 }, async () => {
  const { logger, lines } = capturedLogger();
  const events: string[] = [];
  const exits: (number | undefined)[] = [];
  let exited: () => void = () => undefined;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const lifecycle = new Lifecycle(logger, (code) => void (exits.push(code), exited()));
  const scheduler = failing('scheduler', events);
  await lifecycle.start([recorded('store', events, []), scheduler, recorded('watcher', events, [])]);
  assert.deepEqual(exits, []);
  scheduler.fail(new Error('lost its timer'));
  scheduler.fail(new Error('a second report'));
  await exit;
  assert.deepEqual(exits, [1], 'one exit, non-zero');
  assert.equal(lifecycle.isStopping(), true);
  assert.deepEqual(events, ['start store', 'start scheduler', 'start watcher', 'stop watcher', 'stop scheduler', 'stop store']);
  const failed = lines.filter((l) => l.msg === 'service failed: stopping');
  assert.equal(failed.length, 1, 'said once');
  assert.equal(failed[0]!.service, 'scheduler');
  assert.match(String((failed[0]!.err as { message: string }).message), /lost its timer/);
  assert.ok(lines.some((l) => l.msg === 'stopping' && l.signal === 'failure of scheduler'));
});

test('a failure reported during start-up fails the start-up once every start returned', async () => {
  const { logger } = capturedLogger();
  const events: string[] = [];
  const exits: (number | undefined)[] = [];
  const lifecycle = new Lifecycle(logger, (code) => exits.push(code));
  const store = failing('store', events);
  const api: Service = { ...recorded('api', events, []), start: async () => void (events.push('start api'), store.fail(new Error('store gone'))) };
  await assert.rejects(lifecycle.start([store, api, recorded('watcher', events, [])]), /store gone/);
  assert.equal(lifecycle.isRunning(), false);
  assert.deepEqual(events, ['start store', 'start api', 'start watcher', 'stop watcher', 'stop api', 'stop store']);
  assert.deepEqual(exits, [], 'a failed start-up is answered by its caller');
});

test('a failure reported while stopping does not stop twice', async () => {
  const { logger, lines } = capturedLogger();
  const events: string[] = [];
  const exits: (number | undefined)[] = [];
  const lifecycle = new Lifecycle(logger, (code) => exits.push(code));
  const broker = failing('broker', events);
  const stopFails: Service = { ...broker, stop: async () => void (events.push('stop broker'), broker.fail(new Error('connection closed'))) };
  await lifecycle.start([recorded('store', events, []), stopFails]);
  await lifecycle.stop('SIGTERM');
  assert.deepEqual(events, ['start store', 'start broker', 'stop broker', 'stop store']);
  assert.deepEqual(exits, []);
  assert.equal(lines.filter((l) => l.msg === 'stopping').length, 1);
  assert.ok(!lines.some((l) => l.msg === 'service failed: stopping'));
});
