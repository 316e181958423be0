// What waits for v2 pipeline filters is bounded: per entity and check, and per namespace. Before, each entity's
// check chained its events without limit: 150 KB events at 200/s to one entity grew the heap by 240 MB in 8 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { runPipelines, type HandlerQueue } from '../../src/handling/v2-pipelines.js';
import type { ResourceTables } from '../../src/store/index.js';
import type { Json } from '../../src/json.js';

const handler = { metadata: { name: 'h' }, type: 'pipe', command: 'true' };
const store = { getResource: (kind: string) => (kind === 'Handler' ? handler : null), getEvent: () => null } as unknown as ResourceTables;

function harness() {
  const lines: Json[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const delivered: string[] = [];
  const queue: HandlerQueue = { submit: async (_key, ids) => void delivered.push(String(ids.event)) };
  const warnings = () => lines.filter((l) => l.level === 40 && /events arrive faster than their filters run/.test(l.msg));
  return { log, delivered, queue, warnings };
}

const event = (id: number, entity: string, output = '') => ({
  id: String(id),
  entity: { metadata: { name: entity } },
  check: { metadata: { name: 'c' }, status: 2, handlers: ['h'], output },
});

test("one entity's check: at most 16 events wait behind the one filtering, the newest kept in order, drops logged once", async () => {
  const { log, delivered, queue, warnings } = harness();
  // All in one turn of the event loop: the first is filtering while the others arrive.
  await Promise.all(Array.from({ length: 100 }, (_, i) => runPipelines(store, 'bounds-key', event(i, 'e'), queue, log)));
  assert.deepEqual(delivered, ['0', ...Array.from({ length: 16 }, (_, i) => String(84 + i))]);
  assert.equal(warnings().length, 1, 'rate-limited: one warning for the burst');
  assert.equal(warnings()[0].namespace, 'bounds-key');
  // The lane is free again: the next event runs.
  await runPipelines(store, 'bounds-key', event(100, 'e'), queue, log);
  assert.equal(delivered.at(-1), '100');
});

test('a namespace: at most 1000 events wait or filter at once; another namespace is not affected', async () => {
  const { log, delivered, queue, warnings } = harness();
  const flood = Array.from({ length: 1200 }, (_, i) => runPipelines(store, 'bounds-ns', event(i, `e${i}`), queue, log));
  const other = runPipelines(store, 'bounds-other', event(5000, 'e'), queue, log);
  await Promise.all([...flood, other]);
  assert.equal(delivered.filter((id) => id !== '5000').length, 1000);
  assert.ok(delivered.includes('5000'), "the other namespace's event was handled");
  assert.deepEqual(
    warnings().map((w) => w.namespace),
    ['bounds-ns'],
  );
});

test('a namespace: at most 32 MiB of events (as JSON) wait or filter at once', async () => {
  const { log, delivered, queue } = harness();
  const output = 'y'.repeat(1 << 20);
  await Promise.all(Array.from({ length: 40 }, (_, i) => runPipelines(store, 'bounds-bytes', event(i, `e${i}`, output), queue, log)));
  assert.ok(delivered.length >= 30 && delivered.length < 32, `${delivered.length} of 40 one-MiB events handled`);
});
