// The PostgreSQL event store beyond what the shared event-store suite checks: servers starting together migrate once,
// the probe needs the events table, a merged row read back has its counters from the columns, and a later plain write
// replaces the merge and keeps the row it replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresEventStore } from '../../../src/store/postgres/event-store.js';
import { PG_SCHEMA_VERSION } from '../../../src/store/postgres/schema.js';
import { postgresForFile } from '../../servers/postgres.js';
import type { EventRow } from '../../../src/store/event-store.js';
import type { Json } from '../../../src/json.js';

const { server, missing, freshDsn } = await postgresForFile('pgevents');

async function poolOn(t: { after(fn: () => Promise<void>): void }, dsn: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: dsn, max: 3 });
  t.after(() => pool.end());
  return pool;
}

const row = (entity: string, check: string, status: number, executed: number, namespace = 'default'): EventRow => ({
  namespace,
  entity,
  check,
  event: {
    entity: { entity_class: 'proxy', metadata: { name: entity, namespace } },
    check: { metadata: { name: check, namespace }, status, executed, interval: 60 },
    metadata: { namespace },
  } as Json,
});

test('servers migrating together migrate once; the probe fails until the events table is there', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const [a, b] = [await poolOn(t, dsn), await poolOn(t, dsn)];
  const store = new PostgresEventStore(a, 'postgres:a');
  await assert.rejects(store.probe(), (error: unknown) => (error as { code?: string }).code === '42P01');
  assert.deepEqual(await Promise.all([PostgresEventStore.migrate(a), PostgresEventStore.migrate(b)]), [PG_SCHEMA_VERSION, PG_SCHEMA_VERSION]);
  assert.deepEqual((await a.query('SELECT version FROM checkbridge_schema')).rows, [{ version: PG_SCHEMA_VERSION }]);
  await store.probe();
  assert.equal((await a.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).rows[0].n, 0, 'the migration lock released');
});

test('updates merge in the database; a plain write after them stores the event as given and keeps the one it replaced', async (t) => {
  if (!server) return void t.skip(missing!);
  const pool = await poolOn(t, await freshDsn());
  await PostgresEventStore.migrate(pool);
  const store = new PostgresEventStore(pool, 'postgres:test');
  await store.update(row('web', 'disk', 1, 100), 1000);
  const second = await store.update(row('web', 'disk', 1, 160), 1000);
  assert.deepEqual(
    [second.check!.occurrences, second.check!.state, second.check!.history!],
    [
      2,
      'failing',
      [
        { status: 1, executed: 100 },
        { status: 1, executed: 160 },
      ],
    ],
  );
  assert.deepEqual(await store.get('default', 'web', 'disk'), second);
  const stored = await pool.query('SELECT merged, selectors FROM events');
  assert.equal(stored.rows[0].merged, true);
  assert.equal(stored.rows[0].selectors['event.check.state'], 'failing');

  const plain = row('web', 'disk', 0, 200);
  await store.putMany([plain]);
  assert.deepEqual(await store.get('default', 'web', 'disk'), plain.event, 'as given: no merged counters laid over it');
  const replaced = await pool.query('SELECT merged, previous_serialized FROM events');
  assert.equal(replaced.rows[0].merged, false);
  assert.equal(JSON.parse(replaced.rows[0].previous_serialized).check.executed, 160);
});

test('lists order keys bytewise and filter by namespace and entity; delete and hasEvents see one key', async (t) => {
  if (!server) return void t.skip(missing!);
  const pool = await poolOn(t, await freshDsn());
  await PostgresEventStore.migrate(pool);
  const store = new PostgresEventStore(pool, 'postgres:test');
  await store.putMany([row('b', 'c', 0, 1), row('B', 'c', 0, 2), row('a', 'c', 0, 3), row('a', 'c', 0, 4, 'ops'), row('a', 'C', 0, 5)]);
  await store.putMany([]);
  const keys = (events: Json[]) => events.map((e) => `${e.metadata.namespace}/${e.entity.metadata.name}/${e.check.metadata.name}`);
  assert.deepEqual(keys(await store.list({ namespace: 'default' })), ['default/B/c', 'default/a/C', 'default/a/c', 'default/b/c']);
  assert.deepEqual(keys(await store.list({ namespace: null, entity: 'a' })), ['default/a/C', 'default/a/c', 'ops/a/c']);
  assert.equal(await store.hasEvents('ops'), true);
  assert.equal(await store.delete('ops', 'a', 'C'), false);
  assert.equal(await store.delete('ops', 'a', 'c'), true);
  assert.equal(await store.hasEvents('ops'), false);
});
