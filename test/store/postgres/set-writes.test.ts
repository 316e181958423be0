// A PostgreSQL group commit reads the batch's rows once and sends its writes as a few set-based statements at COMMIT:
// the same rows as SQLite's intake stores (a key written twice in a batch: its last write), in a fixed number of statements.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../../src/store/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { systemClock } from '../../../src/schedule/clock.js';
import { postgresMissing, startPostgres } from '../../servers/postgres.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { typedEvent } from '../../../src/v2/index.js';
import { startDelayProxy } from '../../bench/load/pg-latency-servers.js';

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
const server = missing ? null : await startPostgres();
after(() => server?.stop());
if (server) {
  // Counts every statement the store runs, BEGIN and COMMIT included.
  await server.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await server.restart('fast');
  await server.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}
let databases = 0;

async function freshDatabase(): Promise<{ name: string; dsn: string }> {
  const name = `setwrites_${++databases}`;
  await server!.query(`CREATE DATABASE ${name}`);
  return { name, dsn: server!.url('postgres', name) };
}

const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });

// What the set-based writes carry as array literals: quotes, backslashes, braces, commas and the word NULL.
const awkward = `it's "quoted" \\ {a,b} NULL`;
// Typed as a door hands it to the intake.
const v2Event = (entity: Record<string, unknown>, check: Record<string, unknown>, status: number) =>
  typedEvent({
    entity: { entity_class: 'proxy', ...entity },
    check: { status, output: `status ${status} ${awkward}`, executed: 1000 + status, ...check },
  }).value!;
const result = (client: string, check: string, status: number) => ({
  client,
  check: { name: check, output: `status ${status} ${awkward}`, status, issued: 100 + status, executed: 100 + status },
});

/** Submits everything in one turn (one group commit) and waits for every answer. */
async function oneBatch(store: StateStore, submit: (intake: Intake) => Promise<unknown>[]): Promise<void> {
  const intake = new Intake(store, () => settings, systemClock, capturedLogger().logger);
  const answers = await Promise.all(submit(intake));
  for (const answer of answers) if (answer && typeof answer === 'object') assert.ok((answer as { ok: boolean }).ok, JSON.stringify(answer));
  await intake.flushed();
}

/** Two events of one check in one batch, legacy and v2, beside a proxy entity made by its event and an agent's event. */
const repeatedKeys = (intake: Intake) => [
  intake.submitEvent('default', v2Event({ metadata: { name: 'web' } }, { metadata: { name: 'http' } }, 1)),
  intake.submitEvent('default', v2Event({ metadata: { name: 'web' } }, { metadata: { name: 'http' } }, 2)),
  intake.submitEvent('default', v2Event({ metadata: { name: 'door' } }, { metadata: { name: 'ping' }, proxy_entity_name: 'router' }, 0)),
  intake.submitEvent('default', v2Event({ entity_class: 'agent', metadata: { name: 'box' } }, { metadata: { name: 'disk' } }, 2)),
  intake.submit(result('door', 'legacy', 2)),
  intake.submit(result('door', 'legacy', 1)),
  intake.submit(result('door', 'other', 0)),
];

/** The rows stored, without what differs by run (ids, clocks). */
function rowsOf(store: StateStore) {
  const events = (store.resources.listEvents('default') as Record<string, any>[]).map((e) => ({
    key: `${e.entity.metadata.name}/${e.check.metadata.name}`,
    entity: e.entity.entity_class,
    status: e.check.status,
    output: e.check.output,
    history: e.check.history.map((h: { status: number }) => h.status),
    occurrences: e.check.occurrences,
    sequence: e.sequence,
  }));
  const entities = (store.resources.listEntities('default') as Record<string, any>[]).map((e) => [e.metadata.name, e.entity_class, e.subscriptions]);
  const results = store.listResults().map((r) => [r.client, r.check.name, r.check.status, r.check.output, r.history]);
  const legacyEvents = store.listEvents().map((e: Record<string, any>) => [e.client.name, e.check.name, e.check.status, e.occurrences, e.action]);
  const clients = store.listClients().map((c) => c.name);
  return { events, entities, results, legacyEvents, clients };
}

test('postgres: a batch with repeated keys (two events of one check, legacy and v2) stores the rows SQLite stores', async (t) => {
  if (!server) return void t.skip(missing!);
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const stores = [StateStore.open(join(dir, 'checkbridge.db')), StateStore.openPostgres((await freshDatabase()).dsn, {})];
  t.after(() => stores.forEach((store) => store.close()));
  const rows = [];
  for (const store of stores) {
    store.resources.putResource('Namespace', '', 'default', { name: 'default' });
    await oneBatch(store, repeatedKeys);
    // A second batch reads what the first one wrote.
    await oneBatch(store, (intake) => [intake.submitEvent('default', v2Event({ metadata: { name: 'web' } }, { metadata: { name: 'http' } }, 0))]);
    rows.push(rowsOf(store));
  }
  const [sqlite, postgres] = rows;
  assert.deepEqual(postgres, sqlite);
  const web = postgres!.events.find((e) => e.key === 'web/http');
  assert.deepEqual([web?.history, web?.status, web?.sequence], [[1, 2, 0], 0, undefined]);
  assert.deepEqual(
    postgres!.events.find((e) => e.key === 'web/http'),
    { key: 'web/http', entity: 'proxy', status: 0, output: `status 0 ${awkward}`, history: [1, 2, 0], occurrences: 1, sequence: undefined },
  );
  assert.deepEqual(
    postgres!.results.find(([, check]) => check === 'legacy'),
    [
      'door',
      'legacy',
      1,
      `status 1 ${awkward}`,
      [
        { status: 2, executed: 102 },
        { status: 1, executed: 101 },
      ],
    ],
  );
  assert.deepEqual(postgres!.legacyEvents, [['door', 'legacy', 1, 1, 'create']]);
  assert.deepEqual(
    postgres!.entities.map(([name]) => name),
    ['router', 'web'],
  );
});

/** Statements the database `name` ran since the last reset: all of them, and those on the batch's tables. */
async function statementsIn(name: string): Promise<{ total: number; batched: number; top: string[] }> {
  const { rows } = await server!.query(
    `SELECT s.calls::int AS calls, s.query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '${name}' ORDER BY s.calls DESC`,
  );
  const all = rows as { calls: number; query: string }[];
  const batched = all.filter((r) => /\b(clients|results|events|v2_events|v2_entities)\b/.test(r.query));
  const sum = (list: typeof all) => list.reduce((n, r) => n + r.calls, 0);
  return { total: sum(all), batched: sum(batched), top: all.slice(0, 6).map((r) => `${r.calls} ${r.query.slice(0, 100)}`) };
}

test('postgres: a group commit of 40 events and 20 results costs a fixed number of statements on their tables, not a few per item', async (t) => {
  if (!server) return void t.skip(missing!);
  const { name, dsn } = await freshDatabase();
  // Through the bench's proxy (no delay added), which counts round trips: each time the client speaks after an answer.
  const proxy = await startDelayProxy(Number(new URL(dsn).port), 0);
  t.after(() => proxy.stop());
  const viaProxy = new URL(dsn);
  viaProxy.port = String(proxy.port);
  const store = StateStore.openPostgres(viaProxy.href, {});
  t.after(() => store.close());
  store.resources.putResource('Namespace', '', 'default', { name: 'default' });
  const batch = (intake: Intake) => [
    ...Array.from({ length: 40 }, (_, i) => intake.submitEvent('default', v2Event({ metadata: { name: `proxy-${i}` } }, { metadata: { name: 'c' } }, i % 3))),
    ...Array.from({ length: 20 }, (_, i) => intake.submit(result(`client-${i}`, 'legacy', i % 3))),
  ];
  // The first batch creates the rows; the second updates them (each key read, then written).
  await oneBatch(store, batch);
  await server.query('SELECT pg_stat_statements_reset()');
  const tripsBefore = (await proxy.counts()).round_trips;
  await oneBatch(store, batch);
  const roundTrips = (await proxy.counts()).round_trips - tripsBefore;
  const counted = await statementsIn(name);
  t.diagnostic(`batch of 60: ${counted.total} statements (${counted.batched} on its tables), ${roundTrips} round trips`);
  // Per item before: the entity's and the event's read and write, the result's client, result, event and v2 rows.
  // Now: one read per table for the batch, one check that no row read changed before COMMIT, one write per table and kind.
  assert.ok(counted.batched <= 15, `${counted.batched} statements on the batch's tables:\n${counted.top.join('\n')}`);
  // Each v2 event still reads its namespace's silences (a cache's work, not this batch's): 40, plus a fixed few.
  assert.ok(roundTrips <= 40 + 12, `${roundTrips} round trips for the batch`);
  assert.equal((store.resources.getEvent('default', 'proxy-7', 'c') as Record<string, any>).check.history.length, 2);
  assert.equal(store.getResult('client-5', 'legacy')?.history.length, 2);
});

test('postgres: a row the set-based write refuses at COMMIT fails its own event only; the rest of the batch is stored', async (t) => {
  if (!server) return void t.skip(missing!);
  const { name, dsn } = await freshDatabase();
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  store.resources.putResource('Namespace', '', 'default', { name: 'default' });
  // Only the database knows this rule: the batch's one statement for v2_events fails, not any item's processing.
  await server.query("ALTER TABLE checkbridge_store.v2_events ADD CONSTRAINT no_poison CHECK (entity <> 'poison')", name);
  const intake = new Intake(store, () => settings, systemClock, capturedLogger().logger);
  const answers = await Promise.allSettled(
    ['before', 'poison', 'after'].map((entity) => intake.submitEvent('default', v2Event({ metadata: { name: entity } }, { metadata: { name: 'c' } }, 1))),
  );
  assert.deepEqual(
    answers.map((a) => (a.status === 'fulfilled' ? a.value.ok : /no_poison/.test(String(a.reason)))),
    [true, true, true],
  );
  assert.equal(answers[1]!.status, 'rejected');
  assert.deepEqual(
    (store.resources.listEvents('default') as Record<string, any>[]).map((e) => e.entity.metadata.name),
    ['after', 'before'],
  );
  // Their entities too (the failing event's savepoint undid its entity).
  assert.deepEqual(
    (store.resources.listEntities('default') as Record<string, any>[]).map((e) => e.metadata.name),
    ['after', 'before'],
  );
});
