// v2 events through their pipelines on real resource tables and the real handler queue: which steps run, filtered, mutated, with what data.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { runPipelines } from '../../src/handling/v2-pipelines.js';
import { HandlerPipeline } from '../../src/handling/pipeline.js';
import { spawnCommand } from '../../src/execute/index.js';
import { systemClock } from '../../src/schedule/clock.js';
import type { Event } from '../../src/v2/index.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const NS = 'team';

/** Resource tables, the handler queue over them, and a directory where handlers write what they got. */
function setup(t: TestContext, handlerTimeout = 600) {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  const log = capturedLogger();
  const timeouts: (number | undefined)[] = [];
  const queue = new HandlerPipeline({
    settings: () => settingsOf({ checkbridge: { handler_timeout: handlerTimeout } }),
    store,
    logger: log.logger,
    clock: systemClock,
    spawn: (command, options) => (timeouts.push(options?.timeout), spawnCommand(command, options)),
    deleteClient: async () => false,
  });
  t.after(async () => {
    await queue.drain(30_000);
    store.close();
    removeTree(dir);
  });
  const put = (kind: string, name: string, spec: Record<string, unknown>) =>
    store.resources.putResource(kind, NS, name, { metadata: { name, namespace: NS }, ...spec });
  /** A pipe handler that keeps its stdin in `dir/<name>`. */
  const keeper = (name: string, spec: Record<string, unknown> = {}) => put('Handler', name, { type: 'pipe', command: `cat > ${join(dir, name)}`, ...spec });
  const got = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : null);
  const run = (event: Event) => runPipelines(store.resources, NS, event, queue, log.logger);
  return { dir, store, log, queue, put, keeper, got, run, timeouts };
}

const eventOf = (check: Record<string, unknown> = {}, more: Record<string, unknown> = {}): Event =>
  ({
    id: '11111111-2222-3333-4444-555555555555',
    metadata: { namespace: NS },
    entity: { entity_class: 'proxy', metadata: { name: 'web-1', namespace: NS } },
    check: { metadata: { name: 'disk', namespace: NS }, status: 2, output: 'disk full', ...check },
    timestamp: 1_700_000_000,
    ...more,
  }) as unknown as Event;

test("without pipelines, the check's handlers run with the event as JSON", async (t) => {
  const { keeper, got, run, queue } = setup(t);
  keeper('mail');
  await run(eventOf({ handlers: ['mail'] }));
  const data = JSON.parse(got('mail') ?? 'null') as Record<string, any>;
  assert.equal(data.check.output, 'disk full');
  assert.equal(data.entity.metadata.name, 'web-1');
  assert.equal(queue.counters.handled, 1);
});

test('an event naming no handler runs nothing; a missing handler is logged and skipped', async (t) => {
  const { keeper, got, run, log, queue } = setup(t);
  keeper('mail');
  await run(eventOf());
  assert.equal(got('mail'), null);
  await run(eventOf({ handlers: ['absent', 'mail'] }));
  assert.notEqual(got('mail'), null);
  assert.ok(log.lines.some((l) => l.msg === 'handler not found' && l.handler === 'absent'));
  assert.equal(queue.counters.handled, 1);
});

test("pipelines' workflows replace the check's handlers; metrics handlers run besides", async (t) => {
  const { put, keeper, got, run, log } = setup(t);
  keeper('from-check');
  keeper('from-pipeline');
  keeper('metrics');
  put('Pipeline', 'main', { workflows: [{ name: 'w', handler: { name: 'from-pipeline' } }, { name: 'no-handler' }] });
  await run(eventOf({ handlers: ['from-check'] }, { pipelines: [{ name: 'main' }, { name: 'missing' }], metrics: { handlers: ['metrics'] } }));
  assert.notEqual(got('from-pipeline'), null);
  assert.notEqual(got('metrics'), null);
  assert.equal(got('from-check'), null);
  assert.ok(log.lines.some((l) => l.msg === 'pipeline not found' && l.pipeline === 'missing'));
});

test('when no pipeline gives a step, the check handlers still run', async (t) => {
  const { keeper, got, run } = setup(t);
  keeper('from-check');
  await run(eventOf({ handlers: ['from-check'] }, { pipelines: [{ name: 'missing' }] }));
  assert.notEqual(got('from-check'), null);
});

test("a workflow's filters and the handler's own must all allow the event; built-in and expression filters alike", async (t) => {
  const { put, keeper, got, run, log } = setup(t);
  put('EventFilter', 'no-critical', { action: 'deny', expressions: ['event.check.status == 2'] });
  put('EventFilter', 'only-web', { action: 'allow', expressions: ["event.entity.metadata.name == 'web-1'"] });
  keeper('incident', { filters: ['only-web'] });
  keeper('calm', { filters: ['no-critical'] });
  keeper('unknown-filter');
  put('Pipeline', 'p', {
    workflows: [
      { name: 'a', handler: { name: 'incident' }, filters: [{ name: 'is_incident' }] },
      { name: 'b', handler: { name: 'calm' }, filters: [{ name: 'is_incident' }] },
      { name: 'c', handler: { name: 'unknown-filter' }, filters: [{ name: 'nope' }] },
    ],
  });
  await run(eventOf({}, { pipelines: [{ name: 'p' }] }));
  assert.notEqual(got('incident'), null);
  assert.equal(got('calm'), null, "the handler's own deny filter stops it");
  assert.equal(got('unknown-filter'), null, 'a filter that does not exist stops the step');
  assert.ok(log.lines.some((l) => l.msg === 'event was filtered' && l.filter === 'no-critical'));
  assert.ok(log.lines.some((l) => l.msg === 'filter not found' && l.filter === 'nope'));
});

test('the is_incident built-in stops an OK event that resolves nothing', async (t) => {
  const { put, keeper, got, run } = setup(t);
  keeper('incident');
  put('Pipeline', 'p', { workflows: [{ name: 'a', handler: { name: 'incident' }, filters: [{ name: 'is_incident' }] }] });
  await run(eventOf({ status: 0, history: [{ status: 0, executed: 1 }] }, { pipelines: [{ name: 'p' }] }));
  assert.equal(got('incident'), null);
});

test("mutators: the workflow's wins over the handler's; only_check_output and command mutators shape the data", async (t) => {
  const { put, keeper, got, run } = setup(t);
  put('Mutator', 'upper', { command: "tr 'a-z' 'A-Z'" });
  keeper('plain', { mutator: 'only_check_output' });
  keeper('shouting', { mutator: 'only_check_output' });
  put('Pipeline', 'p', {
    workflows: [
      { name: 'a', handler: { name: 'plain' } },
      { name: 'b', handler: { name: 'shouting' }, mutator: { name: 'upper' } },
    ],
  });
  await run(eventOf({}, { pipelines: [{ name: 'p' }] }));
  assert.equal(got('plain'), 'disk full');
  assert.match(got('shouting') ?? '', /"OUTPUT":"DISK FULL"/);
});

test('a missing or failing mutator fails the step without running its handler', async (t) => {
  const { put, keeper, got, run, log, queue } = setup(t);
  put('Mutator', 'broken', { command: 'echo no; exit 5' });
  keeper('a', { mutator: 'absent' });
  keeper('b', { mutator: 'broken' });
  await run(eventOf({ handlers: ['a', 'b'] }));
  assert.equal(got('a'), null);
  assert.equal(got('b'), null);
  assert.equal(queue.counters.failed, 2);
  assert.ok(log.lines.some((l) => l.msg === 'mutator not found' && l.mutator === 'absent'));
  assert.ok(log.lines.some((l) => l.msg === 'mutator error' && l.mutator === 'broken' && l.status === 5));
});

test("a v2 handler's own timeout applies only below the configured handler timeout", async (t) => {
  const { keeper, run, timeouts } = setup(t, 30);
  keeper('long', { timeout: 1000 });
  keeper('short', { timeout: 5 });
  keeper('none');
  await run(eventOf({ handlers: ['long'] }));
  await run(eventOf({ handlers: ['short'] }));
  await run(eventOf({ handlers: ['none'] }));
  assert.deepEqual(timeouts, [30, 5, 30]);
});
