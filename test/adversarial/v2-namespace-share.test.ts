// One namespace's v2 handlers could hold every shared handler slot (an `edit` user with a
// few slow handlers kept all of checkbridge.handler_concurrency busy), delaying legacy handlers and other namespaces.
// Now one namespace runs at most half of handler_concurrency, and v2 work leaves legacy handlers a quarter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInstance, eventually, postJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const CONCURRENCY = 8;
const PER_NAMESPACE = CONCURRENCY / 2;
// All v2 namespaces together: a quarter stays for legacy handlers.
const ALL_V2 = CONCURRENCY - CONCURRENCY / 4;
const HANDLERS = ['h1', 'h2', 'h3'];
const NAMESPACES = ['greedy', 'other'];

/** The most runs between their start and end marker at once, among the lines `pick` keeps. */
function mostAtOnce(lines: string[], pick: (line: string) => boolean): number {
  let running = 0;
  let most = 0;
  for (const line of lines.filter(pick)) {
    running += line.startsWith('start ') ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

test("one namespace's v2 handlers hold at most half of handler_concurrency, and legacy handlers keep a share while v2 handlers are busy", async (t) => {
  const root = makeTree({});
  const markers = join(root, 'markers');
  const gate = join(root, 'gate');
  const tree = makeTree({
    'conf.d/config.json': {
      client: { name: 'share-host', address: '127.0.0.1', subscriptions: [] },
      checkbridge: { handler_concurrency: CONCURRENCY, entity_limit: 0 },
      handlers: { legacy: { type: 'pipe', command: `echo "legacy $$" >> ${markers}` } },
    },
  });
  const { daemon, v2, api } = await startInstance(tree);
  t.after(async () => {
    // Whatever happened, the handlers' wait ends: nothing of this test keeps running.
    writeFileSync(gate, '');
    await daemon.stop('SIGKILL');
    await sleep(200);
    removeTree(tree);
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  // Each run marks its start with its namespace, waits for the gate (at most 60 s), then marks its end.
  const gated = (namespace: string) =>
    `echo "start ${namespace} $$" >> ${markers}; i=0; while [ ! -e ${gate} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo "end ${namespace} $$" >> ${markers}`;
  for (const namespace of NAMESPACES) {
    const ns = `${v2}/api/core/v2/namespaces/${namespace}`;
    assert.equal((await call(ns, 'PUT', auth, {})).status, 201);
    for (const handler of HANDLERS)
      assert.equal((await call(`${ns}/handlers/${handler}`, 'PUT', auth, { type: 'pipe', command: gated(namespace), timeout: 120 })).status, 201);
    const workflows = HANDLERS.map((handler) => ({ name: handler, handler: { name: handler, type: 'Handler', api_version: 'core/v2' } }));
    assert.equal((await call(`${ns}/pipelines/all`, 'PUT', auth, { workflows })).status, 201);
  }
  // Two events per namespace: six runs each, two per handler (its own limit is a quarter, 2).
  for (const namespace of NAMESPACES) {
    for (let i = 0; i < 2; i++) {
      const entity = `box-${i}`;
      const body = {
        entity: { entity_class: 'proxy', metadata: { name: entity } },
        check: { metadata: { name: 'load' }, interval: 60, status: 2, output: 'busy' },
        pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'all' }],
      };
      assert.equal((await call(`${v2}/api/core/v2/namespaces/${namespace}/events/${entity}/load`, 'PUT', auth, body)).status, 201);
    }
  }
  const read = () => (existsSync(markers) ? readFileSync(markers, 'utf8').split('\n').filter(Boolean) : []);
  const starts = (lines: string[]) => lines.filter((l) => l.startsWith('start ')).length;
  // v2 runs wait at the gate: as many as the v2 share allows (unlimited, every shared slot).
  await eventually(
    async () => read(),
    (lines) => starts(lines) >= ALL_V2,
    30_000,
  );

  // A legacy event now: its handler gets a slot although the v2 handlers are all still busy.
  assert.equal((await postJson(`${api}/results`, { name: 'legacy_check', output: 'down', status: 2, handlers: ['legacy'] })).status, 202);
  const seen = await eventually(
    async () => read(),
    (lines) => lines.some((l) => l.startsWith('legacy ')),
    15_000,
  );
  assert.ok(
    seen.some((l) => l.startsWith('legacy ')),
    `the legacy handler did not run while v2 handlers held the slots: ${JSON.stringify(seen)}`,
  );
  assert.equal(seen.filter((l) => l.startsWith('end ')).length, 0, 'the gate was still closed');

  writeFileSync(gate, '');
  const runs = NAMESPACES.length * 2 * HANDLERS.length;
  const lines = await eventually(
    async () => read(),
    (all) => all.filter((l) => l.startsWith('end ')).length >= runs,
    60_000,
  );
  assert.equal(starts(lines), runs, 'every v2 run started');
  for (const namespace of NAMESPACES) {
    const most = mostAtOnce(lines, (l) => l.split(' ')[1] === namespace);
    assert.ok(most <= PER_NAMESPACE, `${most} runs of namespace ${namespace} at once; its share is ${PER_NAMESPACE}`);
  }
  const most = mostAtOnce(lines, (l) => !l.startsWith('legacy '));
  assert.ok(most <= ALL_V2, `${most} v2 runs at once; the v2 share is ${ALL_V2}`);
});
