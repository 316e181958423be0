import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInstance, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

// 60 v2 events started 60 handler processes at once, and a stop did not wait for them.
const EVENTS = 60;
const CONCURRENCY = 8;
// A quarter of checkbridge.handler_concurrency per handler, as for legacy handlers.
const PER_HANDLER = CONCURRENCY / 4;

/** The most markers between a start and its end at any point: how many ran at once. */
function mostAtOnce(lines: string[]): number {
  let running = 0;
  let most = 0;
  for (const line of lines) {
    running += line.startsWith('start ') ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

test('v2 pipeline handlers go through the handler queues: never more than the per-handler limit at once, drained at stop', async (t) => {
  const root = makeTree({
    'conf.d/config.json': {
      client: { name: 'v2-queue-host', address: '127.0.0.1', subscriptions: [] },
      checkbridge: { handler_concurrency: CONCURRENCY, entity_limit: 0 },
    },
  });
  const markers = join(root, 'markers');
  const gate = join(root, 'gate');
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    // Whatever happened, the handlers' wait ends: nothing of this test keeps running.
    writeFileSync(gate, '');
    await daemon.stop('SIGKILL');
    await sleep(200);
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  // Each run marks its start, waits for the gate (at most 20 s), then marks its end.
  const command = `echo "start $$" >> ${markers}; i=0; while [ ! -e ${gate} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; echo "end $$" >> ${markers}`;
  assert.equal((await call(`${ns}/handlers/gated`, 'PUT', auth, { type: 'pipe', command, timeout: 60 })).status, 201);
  assert.equal(
    (await call(`${ns}/pipelines/all`, 'PUT', auth, { workflows: [{ name: 'all', handler: { name: 'gated', type: 'Handler', api_version: 'core/v2' } }] }))
      .status,
    201,
  );
  for (let i = 0; i < EVENTS; i++) {
    const entity = `box-${i}`;
    const body = {
      entity: { entity_class: 'proxy', metadata: { name: entity } },
      check: { metadata: { name: 'load' }, interval: 60, status: 2, output: 'busy' },
      pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'all' }],
    };
    assert.equal((await call(`${ns}/events/${entity}/load`, 'PUT', auth, body)).status, 201);
  }
  const read = () => (existsSync(markers) ? readFileSync(markers, 'utf8').split('\n').filter(Boolean) : []);
  // The first runs are waiting at the gate; the rest are queued behind them (or, unqueued, all started).
  await eventually(
    async () => read(),
    (lines) => lines.length >= PER_HANDLER,
  );

  // Stop with the gate still closed: the running and the queued runs must all finish before the daemon exits.
  const exit = daemon.stop('SIGTERM');
  await daemon.waitFor((l) => l.msg === 'stopping');
  writeFileSync(gate, '');
  assert.equal(await exit, 0, `exit; last lines: ${JSON.stringify(daemon.logs.slice(-5))}`);

  const lines = read();
  assert.equal(lines.filter((l) => l.startsWith('start ')).length, EVENTS, 'every event was handled');
  assert.equal(lines.filter((l) => l.startsWith('end ')).length, EVENTS, 'every run finished before the exit (drained)');
  assert.ok(mostAtOnce(lines) <= PER_HANDLER, `${mostAtOnce(lines)} ran at once; the limit is ${PER_HANDLER}`);
  assert.ok(!daemon.logs.some((l) => l.msg === 'stopping: queued handlers dropped'), 'queued runs were dropped at stop');
  assert.equal(daemon.logs.filter((l) => l.msg === 'handler output' && l.status === 0).length, EVENTS, 'each run logged its output');
});
