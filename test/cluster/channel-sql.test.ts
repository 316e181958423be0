// The kept messages of the cluster channel on a real PostgreSQL: kept and notified together, a row sent again kept
// once, and what a server missed read back (others' messages since it listened, not long expired, the latest few).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CREATE_KEPT_SQL, KEEP_AND_NOTIFY_SQL, MISSED_SQL, NOW_SQL } from '../../src/cluster/channel-sql.js';
import { postgresForFile } from '../servers/postgres.js';
import { until } from '../helpers/wait.js';

const { server, missing, freshDsn } = await postgresForFile('channel');

async function connected(t: { after(fn: () => Promise<void>): void }): Promise<{ client: pg.Client; open: () => Promise<pg.Client> }> {
  const dsn = await freshDsn();
  const open = async () => {
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    t.after(() => client.end());
    return client;
  };
  const client = await open();
  // Made twice, as every server does at start: the second does nothing.
  await client.query(CREATE_KEPT_SQL);
  await client.query(CREATE_KEPT_SQL);
  return { client, open };
}

/** Keeps `texts` as `sender`'s on `channel`, valid for `ttlMs` more, and notifies `pieces`. */
const keep = (client: pg.Client, channel: string, sender: string, texts: { id?: string; text: string; ttlMs?: number }[], pieces: string[] = []) =>
  client.query(KEEP_AND_NOTIFY_SQL, [
    channel,
    pieces,
    sender,
    texts.map((t) => t.id ?? randomUUID()),
    texts.map((t) => Date.now() + (t.ttlMs ?? 60_000)),
    texts.map((t) => t.text),
  ]);

test('kept rows and their notifications go together, the pieces in order; a row sent again is kept once', async (t) => {
  if (!server) return void t.skip(missing!);
  const { client, open } = await connected(t);
  const listener = await open();
  const heard: string[] = [];
  listener.on('notification', (n) => heard.push(String(n.payload)));
  await listener.query('LISTEN checks');
  const id = randomUUID();
  await keep(client, 'checks', 'one', [{ id, text: 'first' }], ['p1', 'p2', 'p3']);
  await keep(client, 'checks', 'one', [{ id, text: 'first' }], ['p4']);
  assert.ok(await until(() => heard.length === 4, 5000));
  assert.deepEqual(heard, ['p1', 'p2', 'p3', 'p4']);
  const rows = await client.query('SELECT channel, sender, text FROM checkbridge_channel_kept');
  assert.deepEqual(rows.rows, [{ channel: 'checks', sender: 'one', text: 'first' }]);
});

test("what a server missed: the others' messages on its channel since it listened, oldest first, the latest few", async (t) => {
  if (!server) return void t.skip(missing!);
  const { client } = await connected(t);
  await keep(client, 'checks', 'other', [{ text: 'before' }]);
  // A Date keeps milliseconds, PostgreSQL microseconds: a row kept in the same millisecond would count as after.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const since = (await client.query(NOW_SQL)).rows[0].now as Date;
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(since instanceof Date);
  await keep(client, 'checks', 'other', [{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
  await keep(client, 'checks', 'me', [{ text: 'mine' }]);
  await keep(client, 'elsewhere', 'other', [{ text: 'other channel' }]);
  const missed = async (limit: number) => (await client.query(MISSED_SQL, ['checks', 'me', since, limit])).rows.map((r: { text: string }) => r.text);
  assert.deepEqual(await missed(10), ['a', 'b', 'c']);
  assert.deepEqual(await missed(2), ['b', 'c']);
});

test('rows expired more than a minute ago are neither read back nor kept', async (t) => {
  if (!server) return void t.skip(missing!);
  const { client } = await connected(t);
  const since = new Date(Date.now() - 3_600_000);
  await keep(client, 'checks', 'other', [
    { text: 'long gone', ttlMs: -120_000 },
    { text: 'just expired', ttlMs: -1_000 },
  ]);
  assert.deepEqual(
    (await client.query(MISSED_SQL, ['checks', 'me', since, 10])).rows.map((r: { text: string }) => r.text),
    ['just expired'],
  );
  // The next keep sweeps the long-expired row away.
  await keep(client, 'checks', 'other', [{ text: 'fresh' }]);
  const left = await client.query('SELECT text FROM checkbridge_channel_kept ORDER BY seq');
  assert.deepEqual(
    left.rows.map((r: { text: string }) => r.text),
    ['just expired', 'fresh'],
  );
});
