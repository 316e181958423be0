// The event store in use: the embedded one until a PostgresConfig connects; a non-strict one falls back after three
// failed attempts and returns when an attempt succeeds; a strict one is waited for and then fails loudly; a
// configuration that cannot be used is reported and leaves events where they were.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { EventStoreRouter } from '../../../src/store/postgres/event-router.js';
import { EmbeddedEventStore } from '../../../src/store/tables/embedded-event-store.js';
import { PG_TYPE, type PostgresConfig } from '../../../src/store/postgres/config.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { postgresForFile } from '../../servers/postgres.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { until } from '../../helpers/wait.js';
import type { EventRow } from '../../../src/store/event-store.js';
import type { StateStore } from '../../../src/store/index.js';
import type { Json } from '../../../src/json.js';

const { server, missing, freshDsn } = await postgresForFile('router');

const configOf = (name: string, dsn: string, strict = false): PostgresConfig => ({
  type: PG_TYPE,
  api_version: 'store/v1',
  metadata: { name },
  spec: { dsn, pool_size: 2, strict },
});
const row = (check: string, status = 1): EventRow => ({
  namespace: 'default',
  entity: 'web',
  check,
  event: { entity: { metadata: { name: 'web', namespace: 'default' } }, check: { metadata: { name: check }, status, executed: 10 }, metadata: {} } as Json,
});

function routerOf(t: TestContext, timing: { retryMs?: number; strictWaitMs?: number } = {}) {
  const store: StateStore = sqliteStore(t);
  const captured = capturedLogger();
  const router = new EventStoreRouter({
    embedded: new EmbeddedEventStore(store.resources),
    resources: store.resources,
    env: {},
    logger: captured.logger,
    ...timing,
  });
  t.after(() => router.close());
  const switches = () => captured.lines.filter((l) => String(l.msg).startsWith('switched event store')).map((l) => `${l.msg} (${l.postgres})`);
  return { store, router, switches, lines: captured.lines };
}

const embeddedChecks = (store: StateStore) => store.resources.listEvents('default', undefined).map((e) => e.check?.metadata?.name as string);
const pgChecks = async (database: string) =>
  (await server!.query('SELECT sensu_check FROM events ORDER BY sensu_check', database)).rows.map((r) => r.sensu_check as string);

test('without a configuration events stay in the embedded store and no health is reported', async (t) => {
  const { store, router } = routerOf(t);
  await router.start();
  assert.equal(router.label, 'sqlite');
  assert.equal(router.embeddedActive(), true);
  assert.equal(router.health(), undefined);
  router.stage([row('staged')]);
  assert.deepEqual(embeddedChecks(store), ['staged'], 'written at once, inside the caller’s transaction');
  await router.putMany([row('put')]);
  assert.equal((await router.get('default', 'web', 'put'))?.check?.status, 1);
  assert.equal(await router.hasEvents('default'), true);
});

test('a configured PostgreSQL takes the events; staged rows go there once committed; removed, the embedded store again', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const database = new URL(dsn).pathname.slice(1);
  const { store, router, switches } = routerOf(t);
  await router.start();
  await router.configure(configOf('main', dsn));
  assert.deepEqual(router.health(), [{ Name: 'main', Active: true, Healthy: true }]);
  assert.equal(router.label, 'postgres:main');
  assert.equal(router.embeddedActive(), false);
  assert.deepEqual(
    router.configs().map((c) => c.metadata.name),
    ['main'],
  );
  router.stage([row('one'), row('two')]);
  await router.flushStaged();
  router.stage([row('dropped')]);
  await router.flushStaged(false);
  await Promise.all([(router.stage([row('three')]), router.flushStaged()), (router.stage([row('four')]), router.flushStaged())]);
  assert.deepEqual(await pgChecks(database), ['four', 'one', 'three', 'two']);
  assert.deepEqual(embeddedChecks(store), []);
  assert.equal((await router.update(row('one', 2), 20)).check!.occurrences, 1);
  assert.deepEqual(
    (await router.list({ namespace: 'default' })).map((e) => e.check!.metadata!.name),
    ['four', 'one', 'three', 'two'],
  );
  assert.equal(await router.delete('default', 'web', 'two'), true);

  assert.equal(await router.remove('main'), true);
  assert.equal(await router.remove('main'), false);
  assert.equal(router.health(), undefined);
  assert.equal(router.embeddedActive(), true);
  assert.deepEqual(switches(), ['switched event store to postgres (main)', 'switched event store to embedded (main)']);
});

test('a configuration that cannot be used is reported unhealthy with its reason; the first usable one by name is used', async (t) => {
  if (!server) return void t.skip(missing!);
  const { store, router, lines } = routerOf(t);
  // Stored before start: start loads and tries them.
  store.resources.putResource(PG_TYPE, '', 'a-broken', configOf('a-broken', 'postgres://[') as unknown as Json);
  store.resources.putResource(PG_TYPE, '', 'b-main', configOf('b-main', await freshDsn()) as unknown as Json);
  await router.start();
  const health = router.health()!;
  assert.deepEqual(health[1], { Name: 'b-main', Active: true, Healthy: true });
  assert.deepEqual([health[0]!.Name, health[0]!.Active, health[0]!.Healthy], ['a-broken', false, false]);
  assert.match(String(health[0]!.Err), /not a valid postgres:\/\/ URL/);
  assert.equal(router.label, 'postgres:b-main');
  assert.ok(lines.some((l) => l.msg === 'postgres event store configuration unusable: events stay in the embedded store' && l.postgres === 'a-broken'));
});

test('strict and unreachable: a write retries until its wait is over, then fails naming the store and why', async (t) => {
  const { store, router, switches } = routerOf(t, { retryMs: 50, strictWaitMs: 300 });
  await router.start();
  await router.configure(configOf('down', `postgres://postgres@127.0.0.1:1/none`, true));
  assert.deepEqual(router.health(), [{ Name: 'down', Active: true, Healthy: false }]);
  assert.equal(router.embeddedActive(), false, 'strict: never the embedded store');
  await assert.rejects(
    router.putMany([row('lost')]),
    (error: unknown) =>
      error instanceof CheckbridgeError &&
      error.code === 'CB_EVENT_STORE_UNAVAILABLE' &&
      /down \(strict\): .*ECONNREFUSED.*; retried every 0\.05 s for 0\.3 s/.test(error.message),
  );
  assert.deepEqual(embeddedChecks(store), [], 'never silently elsewhere');
  assert.deepEqual(switches(), ['switched event store to postgres (down)']);
});

test('non-strict: three failed attempts send events to the embedded store, and a successful one brings them back', async (t) => {
  if (!server) return void t.skip(missing!);
  await server.query('CREATE ROLE flaky LOGIN');
  await server.query('CREATE DATABASE flaky_events OWNER flaky');
  const { store, router, switches, lines } = routerOf(t, { retryMs: 100 });
  await router.start();
  await router.configure(configOf('soft', server.url('flaky', 'flaky_events')));
  await router.putMany([row('before')]);
  assert.deepEqual(await pgChecks('flaky_events'), ['before']);

  // Refused from now on: its sessions ended, new ones not allowed.
  await server.query("ALTER ROLE flaky NOLOGIN; SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'flaky'");
  await router.putMany([row('during')]);
  assert.deepEqual(embeddedChecks(store), ['during'], 'the write itself went to the embedded store once it fell back');
  assert.deepEqual(router.health(), [{ Name: 'soft', Active: false, Healthy: false }]);
  const fellBack = lines.find((l) => l.msg === 'switched event store to embedded');
  assert.equal(fellBack?.attempts, 3);

  await server.query('ALTER ROLE flaky LOGIN');
  assert.ok(await until(() => !router.embeddedActive(), 15_000), 'back on PostgreSQL once an attempt succeeds');
  await router.putMany([row('after')]);
  assert.deepEqual(await pgChecks('flaky_events'), ['after', 'before']);
  assert.deepEqual(switches(), [
    'switched event store to postgres (soft)',
    'switched event store to embedded (soft)',
    'switched event store to postgres (soft)',
  ]);
});
