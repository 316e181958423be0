// The PostgreSQL event store's schema functions: the history ring read in time order, and the weighted state change
// the v2 backend computes, in the database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../../src/store/postgres/schema.js';
import { updateEvent } from '../../../src/v2/index.js';
import { postgresForFile } from '../../servers/postgres.js';
import type { Json } from '../../../src/json.js';

const { server, missing, freshDsn } = await postgresForFile('schema');

/** A client on a fresh database with every migration applied. */
async function migrated(t: { after(fn: () => Promise<void>): void }): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: await freshDsn() });
  await client.connect();
  t.after(() => client.end());
  for (const migration of PG_MIGRATIONS) await client.query(migration);
  return client;
}

/** The time-ordered statuses and the total_state_change updateEvent gives after `statuses`, one result each. */
function v2After(statuses: readonly number[]): { history: number[]; total: number } {
  let event: Json | null = null;
  for (const [i, status] of statuses.entries())
    event = updateEvent(event, { entity: { metadata: { name: 'e' } }, check: { metadata: { name: 'c' }, status, executed: 100 + i } } as Json, 1);
  return { history: event!.check.history.map((h: Json) => h.status), total: event!.check.total_state_change };
}

test('the schema version is the number of migrations', () => {
  assert.equal(PG_SCHEMA_VERSION, PG_MIGRATIONS.length);
});

test('cb_history_order reads a full ring from the next slot round, and a ring not yet full as it is', async (t) => {
  if (!server) return void t.skip(missing!);
  const client = await migrated(t);
  const ring = Array.from({ length: 21 }, (_, i) => i + 1);
  const ordered = await client.query('SELECT cb_history_order($1::int[], 5) AS full, cb_history_order(ARRAY[7, 8, 9], 2) AS partial', [ring]);
  assert.deepEqual(ordered.rows[0].full, [...ring.slice(4), 1, 2, 3, 4]);
  assert.deepEqual(ordered.rows[0].partial, [7, 8, 9]);
});

test('cb_total_state_change gives what the v2 update gives, and 0 until the history is full', async (t) => {
  if (!server) return void t.skip(missing!);
  const client = await migrated(t);
  const patterns = [
    Array.from({ length: 21 }, (_, i) => i % 2),
    Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? 2 : 0)),
    [0, 0, 1, 1, 1, 0, 2, 2, 0, 0, 0, 1, 2, 2, 2, 2, 0, 1, 1, 0, 0, 2, 2, 2],
    Array.from({ length: 21 }, () => 1),
    [0, 1, 0, 1],
  ];
  for (const statuses of patterns) {
    const { history, total } = v2After(statuses);
    const found = await client.query('SELECT cb_total_state_change($1::int[]) AS t', [history]);
    assert.equal(found.rows[0].t, total, `statuses ${statuses.join(',')}`);
  }
  assert.equal(v2After(patterns[4]!).total, 0);
  assert.ok(v2After(patterns[0]!).total > 90, 'an alternating history is nearly all change');
});

test('cb_merge_event writes the slot, advances the ring, and counts occurrences and the watermark as the v2 update does', async (t) => {
  if (!server) return void t.skip(missing!);
  const client = await migrated(t);
  // A failing check seen twice, then one more failing result: occurrences 3, the watermark follows.
  const merged = await client.query(`SELECT * FROM cb_merge_event(2, 50, 2, 2, 3, ARRAY[0, 2]::int[], ARRAY[50, 60]::bigint[], 2, 70, 0, 0)`);
  assert.deepEqual(merged.rows[0], {
    status: 2,
    last_ok: '50',
    occurrences: 3,
    occurrences_wm: 3,
    history_index: 4,
    history_status: [0, 2, 2],
    history_ts: ['50', '60', '70'],
    state: 'failing',
    total_state_change: 0,
  });
  // Back to passing: last_ok moves to this result, occurrences start again, the watermark stays.
  const passing = await client.query(
    `SELECT status, last_ok, occurrences, occurrences_wm, state FROM cb_merge_event(2, 50, 3, 3, 4, ARRAY[0, 2, 2]::int[], ARRAY[50, 60, 70]::bigint[], 0, 80, 0, 0)`,
  );
  assert.deepEqual(passing.rows[0], { status: 0, last_ok: '80', occurrences: 1, occurrences_wm: 3, state: 'passing' });
});
