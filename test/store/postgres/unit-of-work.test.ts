// A PostgreSQL group commit as a unit of work: the thread is free while its round trips are in flight, and two servers
// committing the same rows at once lose no update (a row changed under a unit runs it again).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { systemClock } from '../../../src/schedule/clock.js';
import { postgresForFile } from '../../servers/postgres.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { typedEvent } from '../../../src/v2/index.js';
import { storeBehindProxy } from '../../helpers/proxied-store.js';
import { watchOpenTransactions } from '../../helpers/open-transactions.js';

const { server, missing, freshDsn: freshDatabase } = await postgresForFile('units');

const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
const intakeOf = (store: StateStore) => new Intake(store, () => settings, systemClock, capturedLogger().logger);
const result = (client: string, check: string, status: number, executed: number) => ({
  client,
  check: { name: check, output: `status ${status}`, status, issued: executed, executed },
});

test('postgres: while a group commit waits for its round trips, the event loop runs other work', async (t) => {
  if (!server) return void t.skip(missing!);
  // 100 ms added per round trip: a commit takes at least two, a timer of 20 ms set as it starts is due well before.
  const { store } = await storeBehindProxy(t, await freshDatabase(), 100);
  const intake = intakeOf(store);
  const order: string[] = [];
  // Eight at once: the batch goes over in the next turn, without waiting for company.
  const submitted = Promise.all(Array.from({ length: 8 }, (_, i) => intake.submit(result(`client-${i}`, 'disk', 1, 1000)))).then(() => order.push('committed'));
  setTimeout(() => order.push('timer'), 20);
  await submitted;
  await intake.flushed();
  // A store that blocks the thread answers the batch inside the turn that commits it, before the timer can run.
  assert.deepEqual(order, ['timer', 'committed']);
  assert.equal(store.getResult('client-7', 'disk')?.history.length, 1);
});

test('postgres: two servers committing the same result rows at once keep every result in the history (a changed row runs the unit again)', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDatabase();
  const [a, b] = [StateStore.openPostgres(dsn, {}), StateStore.openPostgres(dsn, {})];
  t.after(() => (a.close(), b.close()));
  const [intakeA, intakeB] = [intakeOf(a), intakeOf(b)];
  // Ten rounds, each server one result of the same client and check in the same turn: their units overlap.
  for (let round = 0; round < 10; round++)
    await Promise.all([intakeA.submit(result('shared', 'cpu', 0, 2000 + 2 * round)), intakeB.submit(result('shared', 'cpu', 2, 2001 + 2 * round))]);
  await Promise.all([intakeA.flushed(), intakeB.flushed()]);
  const history = a.getResult('shared', 'cpu')!.history;
  assert.equal(history.length, 20, JSON.stringify(history));
  assert.deepEqual(history.map((entry) => entry.status).sort(), [...Array(10).fill(0), ...Array(10).fill(2)]);
});

test('postgres: group commits of other rows are in flight together, each in its own transaction', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDatabase();
  const watch = await watchOpenTransactions(server.url('postgres', 'postgres'), new URL(dsn).pathname.slice(1));
  // 60 ms a round trip: each unit's transaction stays open on the server for at least that long.
  const { store } = await storeBehindProxy(t, dsn, 60);
  const intake = intakeOf(store);
  const submitted: Promise<void>[] = [];
  // Three groups of other clients, each a little after the one before (it is in flight by then).
  for (let group = 0; group < 3; group++) {
    for (let i = 0; i < 8; i++) submitted.push(intake.submit(result(`client-${group}-${i}`, 'disk', 2, 1000)));
    // Well within the first one's two round trips (120 ms and more), so that all three are open together for a while.
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  await Promise.all(submitted);
  const most = await watch.stop();
  assert.ok(most >= 2, `at most ${most} transaction open at once`);
  for (let group = 0; group < 3; group++) assert.equal(store.getResult(`client-${group}-7`, 'disk')?.history.length, 1);
});

test('postgres: an event of an entity already stored, unchanged, commits in one round trip (its rows known from the last unit)', async (t) => {
  if (!server) return void t.skip(missing!);
  const { store, proxy } = await storeBehindProxy(t, await freshDatabase(), 0);
  // Listening, as the daemon does: the silences every event is checked against are held, not read each time.
  await store.listenForChanges(capturedLogger().logger);
  const intake = intakeOf(store);
  const event = (status: number) =>
    typedEvent({
      entity: { entity_class: 'proxy', metadata: { name: 'web-1', namespace: 'default' } },
      check: { metadata: { name: 'http', namespace: 'default' }, interval: 60, status, output: `status ${status}`, executed: 1700000000 + status },
    }).value!;
  await intake.submitEvent('default', event(0));
  // Every connection open and quiet (the unit connections connect in the background), so that none connects while measured.
  let before = await proxy.counts();
  for (let quiet = 0, deadline = Date.now() + 10_000; (before.connections < 5 || quiet < 3) && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await proxy.counts();
    quiet = JSON.stringify(now.per_connection) === JSON.stringify(before.per_connection) ? quiet + 1 : 0;
    before = now;
  }
  await intake.submitEvent('default', event(1));
  const after = await proxy.counts();
  // BEGIN travels with the writes and the COMMIT: nothing is read first (no connection went twice).
  const most = Math.max(...after.per_connection.map((n, i) => n - (before.per_connection[i] ?? 0)));
  assert.equal(most, 1, JSON.stringify({ before: before.per_connection, after: after.per_connection }));
  assert.equal((store.resources.getEvent('default', 'web-1', 'http') as { check: { status: number } }).check.status, 1);
});

test('postgres: a unit whose processing needs a list it was not given (silences not yet held) reads it outside and runs again, never blocking', async (t) => {
  if (!server) return void t.skip(missing!);
  const { store } = await storeBehindProxy(t, await freshDatabase(), 0);
  store.resources.putResource('Silenced', 'default', 'web-1:http', {
    metadata: { name: 'web-1:http', namespace: 'default' },
    subscription: 'entity:web-1',
    check: 'http',
    expire: -1,
    expire_on_resolve: false,
  });
  // Listening from empty caches: the namespace's silences are read the first time an event needs them.
  await store.listenForChanges(capturedLogger().logger);
  const figures = (store as unknown as { unitFigures: { readsAhead: number; blocking: number } }).unitFigures;
  const answer = await intakeOf(store).submitEvent(
    'default',
    typedEvent({
      entity: { entity_class: 'proxy', metadata: { name: 'web-1', namespace: 'default' } },
      check: { metadata: { name: 'http', namespace: 'default' }, interval: 60, status: 2, output: 'down', executed: 1700000000 },
    }).value!,
  );
  assert.ok(answer.ok);
  const stored = store.resources.getEvent('default', 'web-1', 'http') as { check: { is_silenced?: boolean; silenced?: string[] } };
  assert.deepEqual([stored.check.is_silenced, stored.check.silenced], [true, ['web-1:http']]);
  assert.deepEqual(figures, { readsAhead: 1, blocking: 0 });
});

test('postgres: on a listening store, results with ids (claimed inside their unit) commit in a unit where the claim may wait, never as the blocking commit', async (t) => {
  if (!server) return void t.skip(missing!);
  const { store } = await storeBehindProxy(t, await freshDatabase(), 0);
  await store.listenForChanges(capturedLogger().logger);
  const figures = (store as unknown as { unitFigures: { readsAhead: number; blocking: number } }).unitFigures;
  const intake = intakeOf(store);
  const sent = (i: number) => ({ ...result(`client-${i}`, 'disk', 1, 1000 + i), id: `r-${i}` });
  await Promise.all(Array.from({ length: 8 }, (_, i) => intake.submit(sent(i))));
  // The same ids again: copies, recognised by their claims.
  await Promise.all(Array.from({ length: 8 }, (_, i) => intake.submit(sent(i))));
  await intake.flushed();
  assert.equal(store.getResult('client-3', 'disk')?.history.length, 1, 'a copy is not handled twice');
  assert.equal(figures.blocking, 0);
});
