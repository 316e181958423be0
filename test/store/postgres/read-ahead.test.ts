// Rows read ahead while units wait for a connection: they land in the row cache with their versions, a newer cached row
// is never overwritten, and a unit planned afterwards has nothing left to read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateStore } from '../../../src/store/index.js';
import { Intake } from '../../../src/intake/intake.js';
import { systemClock } from '../../../src/schedule/clock.js';
import { typedEvent } from '../../../src/v2/index.js';
import { ReadAhead } from '../../../src/store/postgres/read-ahead.js';
import { RowCache } from '../../../src/store/postgres/row-cache.js';
import { KeyIndex } from '../../../src/store/postgres/key-index.js';
import { UnitPlan } from '../../../src/store/postgres/unit-of-work.js';
import { UnitPostgres } from '../../../src/store/postgres/unit-connection.js';
import { STORE_SCHEMA } from '../../../src/store/postgres/store-schema.js';
import { pgEnvironment } from '../../../src/store/postgres/connection.js';
import { v2Key } from '../../../src/store/postgres/batch-rows.js';
import { postgresForFile } from '../../servers/postgres.js';
import { settingsOf } from '../../helpers/settings.js';
import { capturedLogger } from '../../helpers/log-capture.js';

const { server, missing } = await postgresForFile();

const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });

async function until(what: string, check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); await sleep(20)) if (Date.now() > deadline) assert.fail(`not within 10 s: ${what}`);
}

test('postgres: rows read ahead only while units queue, kept with their versions, never over a newer cached row', async (t) => {
  if (!server) return void t.skip(missing!);
  await server.query('CREATE DATABASE ahead');
  const dsn = server.url('postgres', 'ahead');
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  const event = typedEvent({
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'http' }, interval: 60, status: 2, output: 'down', executed: 1700000000 },
  }).value!;
  assert.equal((await new Intake(store, () => settings, systemClock, capturedLogger().logger).submitEvent('default', event)).ok, true);
  const xmin = String((await server.query("SELECT xmin::text AS xmin FROM checkbridge_store.v2_events WHERE entity = 'web-1'", 'ahead')).rows[0]?.xmin);

  const cache = new RowCache();
  const connection = new UnitPostgres(dsn, pgEnvironment({}), 'ahead', STORE_SCHEMA);
  t.after(() => connection.close());
  // One lane: while a unit is in flight, the next one waits.
  const units = { size: 0, lanes: 1 };
  const ahead = new ReadAhead(cache, new KeyIndex(), { reader: () => connection }, units, () => null);
  const keys = {
    events: [
      ['default', 'web-1', 'http'],
      ['default', 'web-2', 'http'],
    ] as [string, string, string][],
    entities: [
      ['default', 'web-1'],
      ['default', 'web-2'],
    ] as [string, string][],
  };
  // A free connection: the unit reads its own rows at once, nothing is read ahead (its keys not even worked out).
  ahead.want(() => assert.fail('keys asked while a connection is free'));
  await sleep(200);
  assert.deepEqual(ahead.counts, { reads: 0, rows: 0 });

  // Units queued: one read, every row kept; a row another unit cached meanwhile stays as that unit left it.
  units.size = 1;
  cache.set('v2Entities', v2Key('default', 'web-2'), 'newer', '42');
  ahead.want(() => keys);
  await until('read ahead', () => ahead.counts.reads === 1);
  assert.equal(ahead.counts.rows, 3);
  const stored = cache.get('v2Events', v2Key('default', 'web-1', 'http'));
  assert.equal(stored?.seen, xmin, 'kept with its version');
  assert.equal(JSON.parse(String(stored?.value)).check.output, 'down');
  const row = (table: string, ...key: string[]) => {
    const cached = cache.get(table, v2Key(...key));
    return cached && [cached.value, cached.seen];
  };
  assert.deepEqual(row('v2Events', 'default', 'web-2', 'http'), [null, ''], 'an absent row is known absent');
  assert.deepEqual(row('v2Entities', 'default', 'web-2'), ['newer', '42']);
  assert.deepEqual(new UnitPlan({ pairs: [], v2: keys }, cache).reads, [], 'a unit planned now reads nothing');

  // Out of reach: nothing is asked.
  const away = new ReadAhead(new RowCache(), new KeyIndex(), { reader: () => assert.fail('no connection opened') }, units, () => 'out of reach');
  away.want(() => keys);
  await sleep(100);
  assert.deepEqual(away.counts, { reads: 0, rows: 0 });
});
