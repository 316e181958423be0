// The key index: a unit's v2 row that no one stored is taken as absent without a read (one round trip for a new
// entity's first event), and a row another server made meanwhile fails the unit's check and is read, nothing lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateStore } from '../../../src/store/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { systemClock } from '../../../src/schedule/clock.js';
import { KeyIndex, MAX_INDEXED_KEYS } from '../../../src/store/postgres/key-index.js';
import { v2Key } from '../../../src/store/postgres/batch-rows.js';
import { typedEvent } from '../../../src/v2/index.js';
import { postgresForFile } from '../../servers/postgres.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { storeBehindProxy } from '../../helpers/proxied-store.js';
import type { DelayProxy } from '../../bench/load/pg-latency-servers.js';

const { server, missing, freshDsn } = await postgresForFile('keyindex');

const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
const intakeOf = (store: StateStore) => new Intake(store, () => settings, systemClock, capturedLogger().logger);
const event = (entity: string, check: string, status: number) =>
  typedEvent({
    entity: { entity_class: 'proxy', metadata: { name: entity, namespace: 'default' } },
    check: { metadata: { name: check, namespace: 'default' }, interval: 60, status, output: `status ${status}`, executed: 1700000000 + status },
  }).value!;
const historyOf = (store: StateStore, entity: string, check: string) =>
  (store.resources.getEvent('default', entity, check) as { check: { history: { status: number }[] } }).check.history.map((h) => h.status);

/**
 * Once the units' and the reader's connections are open and quiet: the counts, and the connections that still speak
 * while nothing is submitted (the reach probe's SELECT 1 ten times a second), which a measurement leaves out.
 */
async function quiet(proxy: DelayProxy) {
  let before = await proxy.counts();
  for (let still = 0, deadline = Date.now() + 5_000; still < 4 && Date.now() < deadline;) {
    await sleep(50);
    const now = await proxy.counts();
    still = now.connections === before.connections ? still + 1 : 0;
    before = now;
  }
  await sleep(300);
  const idle = await proxy.counts();
  const talking = new Set(idle.per_connection.flatMap((n, i) => (n !== before.per_connection[i] ? [i] : [])));
  return { counts: idle, talking };
}

test('KeyIndex: answers only once loaded; a row read or written is known; past its bound it answers nothing', async () => {
  const index = new KeyIndex();
  const key = v2Key('default', 'web-1', 'http');
  assert.equal(index.absent('v2Events', key), false, 'unloaded: every unknown row is read');
  await index.load(async () => ({
    results: [
      { rows: [{ namespace: 'default', entity: 'web-1', check_name: 'http' }], rowCount: 1, command: 'SELECT' },
      { rows: [], rowCount: 0, command: 'SELECT' },
    ],
  }));
  assert.equal(index.ready, true);
  assert.equal(index.absent('v2Events', key), false, 'a stored row');
  assert.equal(index.absent('v2Events', v2Key('default', 'web-2', 'http')), true, 'a row no one stored');
  assert.equal(index.absent('v2Entities', v2Key('default', 'web-2')), true);
  assert.equal(index.absent('clients', 'web-2'), false, 'the legacy tables are not indexed');
  index.present('v2Entities', v2Key('default', 'web-2'));
  assert.equal(index.absent('v2Entities', v2Key('default', 'web-2')), false);

  const failing = new KeyIndex();
  await failing.load(async () => {
    throw new Error('connection refused');
  });
  assert.equal(failing.ready, false, 'a failed load answers nothing');
  let asked = 0;
  await failing.load(async () => (asked++, { results: [] }));
  assert.equal(asked, 0, 'and is not tried again at once (a slow link is not asked each unit)');

  const large = new KeyIndex();
  const offs: unknown[] = [];
  large.onTurnedOff = (table, count) => offs.push([table, count]);
  const rows = Array.from({ length: MAX_INDEXED_KEYS + 1 }, (_, i) => ({ namespace: 'default', entity: `e${i}`, check_name: 'c' }));
  await large.load(async () => ({
    results: [
      { rows, rowCount: rows.length, command: 'SELECT' },
      { rows: [], rowCount: 0, command: 'SELECT' },
    ],
  }));
  assert.equal(large.absent('v2Events', v2Key('default', 'other', 'c')), false, 'too many rows to index: every unknown row is read');
  assert.deepEqual(offs, [['v2Events', MAX_INDEXED_KEYS + 1]], 'said once, with the table');

  // Grown past the bound by this server's own units: off, and said so.
  const grown = new KeyIndex();
  grown.onTurnedOff = (table, count) => offs.push([table, count]);
  await grown.load(async () => ({
    results: [
      { rows: [], rowCount: 0, command: 'SELECT' },
      { rows: [], rowCount: 0, command: 'SELECT' },
    ],
  }));
  for (let i = 0; i <= MAX_INDEXED_KEYS; i++) grown.present('v2Entities', v2Key('default', `e${i}`));
  assert.equal(grown.ready, false);
  assert.deepEqual(offs.at(-1), ['v2Entities', MAX_INDEXED_KEYS + 1]);
  grown.present('v2Entities', v2Key('default', 'later'));
  assert.equal(offs.length, 2, 'once');
});

test('postgres: a new entity first event commits in one round trip once the index is read (nothing read before it)', async (t) => {
  if (!server) return void t.skip(missing!);
  const { store, proxy } = await storeBehindProxy(t, await freshDsn(), 0);
  await store.listenForChanges(capturedLogger().logger);
  const intake = intakeOf(store);
  // The first unit starts reading the index on the reader connection.
  await intake.submitEvent('default', event('web-1', 'http', 0));
  const { counts: before, talking } = await quiet(proxy);
  await intake.submitEvent('default', event('web-2', 'disk', 1));
  const after = await proxy.counts();
  const most = Math.max(...after.per_connection.map((n, i) => (talking.has(i) ? 0 : n - (before.per_connection[i] ?? 0))));
  assert.equal(most, 1, JSON.stringify({ before: before.per_connection, after: after.per_connection, talking: [...talking] }));
  assert.deepEqual(historyOf(store, 'web-2', 'disk'), [1]);
});

test('postgres: a row another server stored after the index was read fails the check; the unit reads it and keeps its history', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const { store: a, proxy } = await storeBehindProxy(t, dsn, 0);
  const b = StateStore.openPostgres(dsn, {});
  t.after(() => b.close());
  const [intakeA, intakeB] = [intakeOf(a), intakeOf(b)];
  await intakeA.submitEvent('default', event('web-1', 'http', 0));
  await quiet(proxy);
  // Server B stores the row A's index does not know; A then takes it as absent, and its COMMIT's check says otherwise.
  await intakeB.submitEvent('default', event('web-2', 'disk', 2));
  await intakeA.submitEvent('default', event('web-2', 'disk', 1));
  assert.deepEqual(historyOf(b, 'web-2', 'disk'), [2, 1], 'both servers events are in the history');
  // Now known: the next event of the row is not taken as absent again.
  await intakeA.submitEvent('default', event('web-2', 'disk', 0));
  assert.deepEqual(historyOf(b, 'web-2', 'disk'), [2, 1, 0]);
});

test('postgres: a row believed absent that another server then made costs its unit one rerun, not two', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const [a, b] = [StateStore.openPostgres(dsn, {}), StateStore.openPostgres(dsn, {})];
  t.after(() => (a.close(), b.close()));
  const entity = (name: string) => ({ pairs: [], v2: { events: [], entities: [['default', name] as const] } });
  // The first unit starts reading the index; then a unit names `k` without writing it: `k` is known absent.
  await a.unit(
    entity('warm'),
    () => undefined,
    () => undefined,
  );
  await sleep(500);
  await a.unit(
    entity('k'),
    () => assert.equal(a.resources.getEntity('default', 'k'), null),
    () => undefined,
  );
  b.resources.putEntity('default', 'k', { metadata: { name: 'k', namespace: 'default' }, entity_class: 'proxy' });
  const seen: unknown[] = [];
  let reruns = 0;
  await a.unit(
    entity('k'),
    () => seen.push(a.resources.getEntity('default', 'k')?.entity_class ?? null),
    () => reruns++,
  );
  assert.deepEqual(seen, [null, 'proxy'], 'the rerun reads the row');
  assert.equal(reruns, 1);
});
