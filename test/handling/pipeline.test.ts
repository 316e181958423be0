// The legacy handler pipeline with real shell handlers and a real SQLite store: what each event is decided, run, counted and logged, and how it stops.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { HandlerPipeline, v2Shares, type PipelineDeps } from '../../src/handling/pipeline.js';
import { spawnCommand } from '../../src/execute/index.js';
import { systemClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { eventDraft } from '../helpers/event-draft.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { keepEachCommand, keptEvents } from '../helpers/kept-events.js';

const event = eventDraft;

/** A pipeline over these settings; `dir` is a private directory, `gate` a file whose presence lets gated handlers finish. */
function pipelineOf(t: TestContext, config: (dir: string, gated: string) => Record<string, unknown>, deps: Partial<PipelineDeps> = {}) {
  const dir = makeTree({});
  const gate = join(dir, 'go');
  const gated = `while [ ! -e ${gate} ]; do sleep 0.02; done; cat > /dev/null`;
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  const settings = settingsOf(config(dir, gated));
  const log = capturedLogger();
  const open = () => writeFileSync(gate, '');
  const pipeline = new HandlerPipeline({
    settings: () => settings,
    store,
    logger: log.logger,
    clock: systemClock,
    spawn: spawnCommand,
    deleteClient: async () => false,
    ...deps,
  });
  t.after(async () => {
    if (!existsSync(gate)) open();
    await pipeline.drain(30_000);
    store.close();
    removeTree(dir);
  });
  return { dir, pipeline, log, open };
}

test('v2 work may hold half the slots per namespace and leaves legacy handlers a quarter, never less than one', () => {
  assert.deepEqual(v2Shares(16), { namespace: 8, v2: 12 });
  assert.deepEqual(v2Shares(4), { namespace: 2, v2: 3 });
  assert.deepEqual(v2Shares(3), { namespace: 1, v2: 2 });
  assert.deepEqual(v2Shares(1), { namespace: 1, v2: 1 });
});

test("an event runs each of its check's handlers with the event JSON, and unknown handler names are reported", async (t) => {
  const { dir, pipeline, log } = pipelineOf(t, (dir) => ({
    handlers: { a: { type: 'pipe', command: keepEachCommand(join(dir, 'a')) }, b: { type: 'pipe', command: keepEachCommand(join(dir, 'b')) } },
  }));
  const decision = pipeline.handle(event({ handlers: ['a', 'b', 'nowhere'] }));
  assert.deepEqual(
    decision?.handlers.map((h) => [h.handler.name, h.filtered]),
    [
      ['a', null],
      ['b', null],
    ],
  );
  assert.deepEqual(decision?.errors, [{ name: 'nowhere', message: 'unknown handler' }]);
  assert.equal(await pipeline.drain(30_000), true);
  for (const name of ['a', 'b']) {
    const [kept] = keptEvents(join(dir, name));
    assert.equal(kept?.id, 'e-1');
    assert.equal('last_state_change' in (kept ?? {}), false);
  }
  assert.deepEqual(pipeline.counters, { events: 1, handled: 2, filtered: 0, failed: 0, dropped: 0 });
  assert.ok(log.lines.some((l) => l.msg === 'unknown handler' && l.handler === 'nowhere'));
});

test('a handler that filters the event out is decided as filtered and never runs', async (t) => {
  const { dir, pipeline, log } = pipelineOf(t, (dir) => ({
    handlers: { crit: { type: 'pipe', command: keepEachCommand(join(dir, 'crit')), severities: ['critical'] } },
  }));
  const decision = pipeline.handle(event({ handlers: ['crit'], status: 1 }));
  assert.deepEqual(decision?.handlers[0]?.filtered, { message: 'handler does not handle event severity' });
  await pipeline.drain(30_000);
  assert.deepEqual(keptEvents(join(dir, 'crit')), []);
  assert.equal(pipeline.counters.filtered, 1);
  assert.equal(pipeline.counters.handled, 0);
  assert.ok(log.lines.some((l) => l.msg === 'handler does not handle event severity' && l.handler === 'crit'));
});

test('a failing handler and a failing mutator are counted as failed and logged with their output', async (t) => {
  const { pipeline, log } = pipelineOf(t, () => ({
    handlers: { broken: { type: 'pipe', command: 'echo oops; exit 1' }, mutated: { type: 'pipe', command: 'cat', mutator: 'bad' } },
    mutators: { bad: { command: 'echo bad mutator; exit 4' } },
  }));
  pipeline.handle(event({ handlers: ['broken', 'mutated'] }));
  await pipeline.drain(30_000);
  assert.equal(pipeline.counters.failed, 2);
  assert.equal(pipeline.counters.handled, 0);
  const output = log.lines.find((l) => l.msg === 'handler output' && l.handler === 'broken');
  assert.deepEqual([output?.output, output?.status, output?.level], [['oops'], 1, 50]);
  const mutator = log.lines.find((l) => l.msg === 'mutator error');
  assert.deepEqual([mutator?.handler, mutator?.output, mutator?.status], ['mutated', ['bad mutator'], 4]);
});

test('the debug extension handler logs the event JSON; the deregistration one removes the client', async (t) => {
  const removed: string[] = [];
  const { pipeline, log } = pipelineOf(t, () => ({}), { deleteClient: async (name) => (removed.push(name), true) });
  pipeline.handle(event({ handlers: ['debug', 'deregistration'] }));
  await pipeline.drain(30_000);
  assert.deepEqual(removed, ['web-1']);
  const debug = log.lines.find((l) => l.msg === 'handler extension output' && l.handler === 'debug');
  assert.equal(JSON.parse((debug?.output as string[])[0]!).id, 'e-1');
  const deregistration = log.lines.find((l) => l.msg === 'handler extension output' && l.handler === 'deregistration');
  assert.deepEqual(deregistration?.output, ['deleted client web-1']);
  assert.equal(pipeline.counters.handled, 2);
});

test('a deregistration that cannot remove the client fails', async (t) => {
  const { pipeline, log } = pipelineOf(t, () => ({}), {
    deleteClient: async () => {
      throw new Error('store gone');
    },
  });
  pipeline.handle(event({ handlers: ['deregistration'] }));
  await pipeline.drain(30_000);
  assert.equal(pipeline.counters.failed, 1);
  assert.ok(log.lines.some((l) => l.level === 50 && JSON.stringify(l.output) === '["error deleting client web-1"]'));
});

test("past a handler's queue limit, further events for it are dropped while others keep their own queue", async (t) => {
  const { dir, pipeline, open } = pipelineOf(t, (dir, gated) => ({
    checkbridge: { handler_concurrency: 4, handler_queue_limit: 1 },
    handlers: { slow: { type: 'pipe', command: gated }, other: { type: 'pipe', command: keepEachCommand(join(dir, 'other')) } },
  }));
  for (let i = 0; i < 3; i++) pipeline.handle(event({ handlers: ['slow'] }, { id: `slow-${i}` }));
  assert.equal(pipeline.counters.dropped, 1, 'one runs, one waits, the third finds the queue full');
  pipeline.handle(event({ handlers: ['other'] }));
  // The other handler finishes while slow is still held (the gate is opened only below).
  while (pipeline.counters.handled === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(keptEvents(join(dir, 'other')).length, 1);
  assert.equal(pipeline.pending, 2, 'the two slow runs are still queued or running');
  open();
  assert.equal(await pipeline.drain(30_000), true);
  assert.deepEqual(pipeline.counters, { events: 4, handled: 3, filtered: 0, failed: 0, dropped: 1 });
});

test('stopping refuses new events and, once its wait runs out, drops what is still queued', async (t) => {
  const { pipeline, open, log } = pipelineOf(t, (_dir, gated) => ({
    checkbridge: { handler_concurrency: 4 },
    handlers: { slow: { type: 'pipe', command: gated } },
  }));
  pipeline.handle(event({ handlers: ['slow'] }, { id: 'running' }));
  pipeline.handle(event({ handlers: ['slow'] }, { id: 'queued' }));
  assert.equal(pipeline.pending, 2);
  assert.equal(await pipeline.stop(50), false, 'the first handler is held, so the stop cannot finish');
  assert.equal(pipeline.handle(event({ handlers: ['slow'] }, { id: 'late' })), null);
  await pipeline.submit('ns/h', { event: 'v2' }, async () => ({ ok: true }));
  open();
  assert.equal(await pipeline.drain(30_000), true);
  assert.deepEqual(pipeline.counters, { events: 3, handled: 1, filtered: 0, failed: 0, dropped: 3 });
  assert.ok(log.messages().includes('stopping: queued handlers dropped'));
});

test('v2 work submitted under a namespace key runs with the handler timeout and is counted', async (t) => {
  const { pipeline } = pipelineOf(t, () => ({ checkbridge: { handler_timeout: 42 } }));
  const seen: (number | undefined)[] = [];
  await pipeline.submit('ns/h', { event: 'v2' }, async (spawn, timeout) => {
    seen.push(timeout);
    const run = await spawn('echo hi', {});
    return { ok: run.status === 0, output: run.output };
  });
  await pipeline.submit('ns/h', { event: 'v2' }, async () => ({ ok: false, error: 'refused' }));
  assert.deepEqual(seen, [42]);
  assert.deepEqual(pipeline.counters, { events: 0, handled: 1, filtered: 0, failed: 1, dropped: 0 });
});

test('a transport handler without a broker is warned about once per settings check', (t) => {
  const { pipeline, log } = pipelineOf(t, () => ({
    handlers: { mq: { type: 'transport', pipe: { type: 'direct', name: 'q' } }, p: { type: 'pipe', command: 'cat' } },
  }));
  pipeline.checkSettings(settingsOf({ handlers: { mq: { type: 'transport', pipe: { type: 'direct', name: 'q' } }, p: { type: 'pipe', command: 'cat' } } }));
  const warnings = log.lines.filter((l) => l.level === 40);
  assert.deepEqual(
    warnings.map((l) => l.handler),
    ['mq'],
  );
});
