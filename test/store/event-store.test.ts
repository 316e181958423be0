// One suite, two implementations: every case runs against the SQLite event store and the PostgreSQL one.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { StateStore } from '../../src/store/index.js';
import { EmbeddedEventStore } from '../../src/store/tables/embedded-event-store.js';
import { PostgresEventStore } from '../../src/store/postgres/event-store.js';
import { PG_SCHEMA_VERSION } from '../../src/store/postgres/schema.js';
import type { V2EventStore } from '../../src/store/event-store.js';
import { updateEvent } from '../../src/v2/event-update.js';
import { parseSelector, matchesSelector, EVENT_FIELDS } from '../../src/v2/selectors.js';
import { redactOutput } from '../../src/config/redact.js';
import { CheckbridgeError } from '../../src/errors.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../servers/postgres.js';

import type { Json } from '../../src/json.js';
type Fresh = (t: { after(fn: () => void | Promise<void>): void }) => Promise<V2EventStore>;

const event = (entity: string, check: string, status: number, executed: number, extra: Json = {}): Json => ({
  entity: {
    entity_class: 'proxy',
    metadata: { name: entity, namespace: 'default', labels: extra.entityLabels ?? {} },
    subscriptions: extra.subscriptions ?? [`entity:${entity}`],
  },
  check: {
    metadata: { name: check, namespace: 'default', labels: extra.checkLabels ?? {} },
    status,
    executed,
    output: `out ${executed}`,
    handlers: extra.handlers ?? [],
    ...(extra.check ?? {}),
  },
  metadata: { namespace: 'default', labels: extra.labels ?? {} },
  id: `${entity}-${check}-${executed}`,
  timestamp: executed,
});

function sharedCases(name: string, fresh: () => Fresh) {
  describe(`event store: ${name}`, () => {
    test('events stored as given read back exactly, in key order; in one batch the last write of a key wins', async (t) => {
      const store = await fresh()(t);
      await store.putMany([
        { namespace: 'default', entity: 'b', check: 'c', event: event('b', 'c', 1, 10) },
        { namespace: 'default', entity: 'a', check: 'z', event: event('a', 'z', 0, 11) },
        { namespace: 'other', entity: 'a', check: 'c', event: { ...event('a', 'c', 2, 12), metadata: { namespace: 'other' } } },
        { namespace: 'default', entity: 'a', check: 'c', event: event('a', 'c', 0, 13) },
        {
          namespace: 'default',
          entity: 'a',
          check: 'c',
          event: event('a', 'c', 2, 14, {
            check: {
              history: [
                { status: 0, executed: 13 },
                { status: 2, executed: 14 },
              ],
              occurrences: 1,
            },
          }),
        },
      ]);
      assert.deepEqual(
        await store.get('default', 'a', 'c'),
        event('a', 'c', 2, 14, {
          check: {
            history: [
              { status: 0, executed: 13 },
              { status: 2, executed: 14 },
            ],
            occurrences: 1,
          },
        }),
      );
      assert.equal(await store.get('default', 'nope', 'c'), null);
      assert.deepEqual(
        (await store.list({ namespace: 'default' })).map((e) => e.id),
        ['a-c-14', 'a-z-11', 'b-c-10'],
      );
      assert.deepEqual(
        (await store.list({ namespace: 'default', entity: 'a' })).map((e) => e.id),
        ['a-c-14', 'a-z-11'],
      );
      assert.deepEqual(
        (await store.list({ namespace: null })).map((e) => e.id),
        ['a-c-14', 'a-z-11', 'b-c-10', 'a-c-12'],
      );
      assert.equal(await store.hasEvents('other'), true);
      assert.equal(await store.delete('other', 'a', 'c'), true);
      assert.equal(await store.delete('other', 'a', 'c'), false);
      assert.equal(await store.hasEvents('other'), false);
    });

    test('updates keep a history ring of 21 in time order, occurrences, watermark and last_ok as the v2 backend does', async (t) => {
      const store = await fresh()(t);
      const statuses = [0, 0, 1, 1, 1, 0, 2, 2, 0, 0, 0, 1, 2, 2, 2, 2, 0, 1, 1, 0, 0, 2, 2, 2, 1, 0, 0];
      let expected: Json | null = null;
      for (const [i, status] of statuses.entries()) {
        const incoming = event('web', 'disk', status, 1000 + i);
        expected = updateEvent(expected, incoming, 5000);
        const stored = await store.update({ namespace: 'default', entity: 'web', check: 'disk', event: incoming }, 5000);
        assert.deepEqual(stored, expected, `after write ${i}`);
      }
      const read = await store.get('default', 'web', 'disk');
      assert.deepEqual(read, expected);
      assert.equal(read!.check!.history!.length, 21);
      assert.deepEqual(
        read!.check!.history!.map((h: Json) => h.executed),
        Array.from({ length: 21 }, (_, i) => 1006 + i),
      );
      assert.equal(read!.check!.last_ok, 1026);
      assert.equal(read!.check!.occurrences, 2);
    });

    test('a first write keeps the history sent with it; flapping comes from the history, as in legacy', async (t) => {
      const store = await fresh()(t);
      const sent = event('f', 'flap', 1, 100, { check: { low_flap_threshold: 10, high_flap_threshold: 20, history: [{ status: 0, executed: 90 }] } });
      let expected = updateEvent(null, sent, 7);
      assert.deepEqual(await store.update({ namespace: 'default', entity: 'f', check: 'flap', event: sent }, 7), expected);
      assert.equal(expected.check.history.length, 2);
      for (let i = 0; i < 24; i++) {
        const incoming = event('f', 'flap', i % 2, 101 + i, { check: { low_flap_threshold: 10, high_flap_threshold: 20 } });
        expected = updateEvent(expected, incoming, 7);
        assert.deepEqual(await store.update({ namespace: 'default', entity: 'f', check: 'flap', event: incoming }, 7), expected);
      }
      assert.equal(expected.check.state, 'flapping');
      assert.ok(expected.check.total_state_change >= 20);
      const [flapping] = await store.list({ namespace: 'default', fields: parseSelector('event.check.state == flapping') });
      assert.equal(flapping?.id, expected.id);
    });

    test('fieldSelector and labelSelector select what the in-memory matcher selects', async (t) => {
      const store = await fresh()(t);
      const events = [
        event('web-1', 'disk', 2, 1, { labels: { team: 'ops' }, subscriptions: ['linux', 'web'], handlers: ['slack', 'pager'] }),
        event('web-2', 'disk', 0, 2, { entityLabels: { region: 'eu', password: 'hunter2' }, subscriptions: ['linux'] }),
        event('db-1', 'load', 1, 3, { checkLabels: { team: 'dba' }, subscriptions: ['windows'], handlers: ['slack'] }),
        event('db-2', 'load', 0, 4, { labels: { team: 'ops', tier: 'gold' } }),
      ];
      await store.putMany(events.map((e) => ({ namespace: 'default', entity: e.entity.metadata.name, check: e.check.metadata.name, event: e })));
      const ids = (list: Json[]) => list.map((e) => e.id).sort();
      const fieldCases = [
        'event.check.status == 2',
        'event.check.status != 0',
        'event.check.status in [1,2]',
        'event.check.status notin [1, 2]',
        'event.entity.name matches web',
        'linux in event.entity.subscriptions',
        'linux notin event.entity.subscriptions',
        'slack in event.check.handlers && event.check.status == 1',
        'event.labels.team == ops',
        'event.labels.team != ops',
        'event.labels.region in [eu, us]',
        'event.labels.password == hunter2',
        'event.name == db-1/load',
        'event.check.name == disk && event.entity.name != web-1',
      ];
      for (const text of fieldCases) {
        const ops = parseSelector(text);
        const want = events
          .filter((e) => matchesSelector(ops, EVENT_FIELDS.fields(redactOutput(e) as Json)))
          .map((e) => e.id)
          .sort();
        assert.deepEqual(ids(await store.list({ namespace: 'default', fields: ops })), want, text);
      }
      assert.deepEqual(
        ids(await store.list({ namespace: 'default', fields: parseSelector('event.labels.password == hunter2') })),
        [],
        'a redacted label cannot be guessed',
      );
      const labelCases = ['team == ops', 'team in [dba]', 'team notin [ops]', 'tier matches ol', 'region != eu'];
      for (const text of labelCases) {
        const ops = parseSelector(text);
        const want = events
          .filter((e) => matchesSelector(ops, EVENT_FIELDS.labels(redactOutput(e) as Json)))
          .map((e) => e.id)
          .sort();
        assert.deepEqual(ids(await store.list({ namespace: 'default', labels: ops })), want, text);
      }
      assert.deepEqual(
        ids(
          await store.list({ namespace: 'default', entity: 'db-2', fields: parseSelector('event.check.status == 0'), labels: parseSelector('tier == gold') }),
        ),
        ['db-2-load-4'],
      );
    });
  });
}

sharedCases('sqlite', () => async () => new EmbeddedEventStore(StateStore.open(':memory:').resources));

let server: PostgresServer | null = null;
let databases = 0;
const pools: pg.Pool[] = [];

async function freshDatabase(): Promise<pg.Pool> {
  const name = `events_${++databases}`;
  await server!.query(`CREATE DATABASE ${name}`);
  const pool = new pg.Pool({ connectionString: server!.url('postgres', name), max: 4 });
  pools.push(pool);
  return pool;
}

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);

describe('postgres', { skip: missing ?? false }, () => {
  before(async () => {
    server = await startPostgres();
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    server?.stop();
  });

  sharedCases('postgres', () => async () => {
    assert.ok(server, 'PostgreSQL is running');
    const pool = await freshDatabase();
    await PostgresEventStore.migrate(pool);
    return new PostgresEventStore(pool, 'postgres:test');
  });

  test('the schema is versioned, migrated once, indexed with GIN, and a newer schema is refused untouched', async () => {
    assert.ok(server);
    const pool = await freshDatabase();
    assert.equal(await PostgresEventStore.migrate(pool), PG_SCHEMA_VERSION);
    assert.equal(await PostgresEventStore.migrate(pool), PG_SCHEMA_VERSION);
    assert.deepEqual((await pool.query('SELECT version FROM checkbridge_schema')).rows, [{ version: PG_SCHEMA_VERSION }]);
    const index = await pool.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'idxginevents'");
    assert.match(index.rows[0].indexdef, /USING gin \(selectors jsonb_path_ops\)/);
    const store = new PostgresEventStore(pool, 'postgres:test');
    await store.putMany(Array.from({ length: 50 }, (_, i) => ({ namespace: 'default', entity: `e${i}`, check: 'c', event: event(`e${i}`, 'c', i % 3, i) })));
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(`EXPLAIN SELECT 1 FROM events WHERE selectors @> '{"event.check.status":"2"}'::jsonb`);
      assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /idxginevents/);
    } finally {
      client.release();
    }
    await pool.query(`UPDATE checkbridge_schema SET version = ${PG_SCHEMA_VERSION + 1}`);
    await assert.rejects(PostgresEventStore.migrate(pool), (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_NEWER');
    assert.deepEqual((await pool.query('SELECT version FROM checkbridge_schema')).rows, [{ version: PG_SCHEMA_VERSION + 1 }]);
  });
});
