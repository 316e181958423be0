// The cluster channel's statements on a real PostgreSQL: kept rows stored once and notified in order, expired ones
// removed a minute late, and a reconnecting server reading back only what others kept since it first listened.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { CREATE_KEPT_SQL, KEEP_AND_NOTIFY_SQL, MISSED_SQL, NOTIFY_SQL, NOW_SQL } from '../../src/cluster/channel-sql.js';
import { postgresForFile } from '../servers/postgres.js';

const { missing, freshDsn } = await postgresForFile('channel');
const clients: pg.Client[] = [];
after(async () => void (await Promise.all(clients.map((c) => c.end().catch(() => undefined)))));

async function connect(dsn: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  clients.push(client);
  return client;
}

/** A database with the kept table, a sender and a listener on `channel` whose notifications are collected. */
async function channel() {
  const dsn = await freshDsn();
  const [sender, listener] = [await connect(dsn), await connect(dsn)];
  await sender.query(CREATE_KEPT_SQL);
  await sender.query(CREATE_KEPT_SQL); // a second server creating it again changes nothing
  const heard: string[] = [];
  listener.on('notification', (note) => heard.push(String(note.payload)));
  await listener.query('LISTEN cb');
  const since = (await listener.query<{ now: Date }>(NOW_SQL)).rows[0]!.now;
  const keep = (from: string, kept: [string, number, string][], pieces = kept.map(([, , text]) => text)) =>
    sender.query(KEEP_AND_NOTIFY_SQL, ['cb', pieces, from, kept.map((k) => k[0]), kept.map((k) => k[1]), kept.map((k) => k[2])]);
  const missed = async (self: string, limit = 100) => (await listener.query<{ text: string }>(MISSED_SQL, ['cb', self, since, limit])).rows.map((r) => r.text);
  return { sender, heard, keep, missed };
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const soon = () => Date.now() + 60_000;

test('NOTIFY_SQL sends the pieces of one turn in their order', { skip: missing ?? false }, async () => {
  const { sender, heard } = await channel();
  await sender.query(NOTIFY_SQL, ['cb', ['c', 'a', 'b']]);
  await sender.query('SELECT 1'); // the listener's notifications come ahead of its next answer
  for (let i = 0; i < 50 && heard.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(heard, ['c', 'a', 'b']);
});

test('a kept message is stored once however often it is sent again, and read back in the order kept', { skip: missing ?? false }, async () => {
  const { keep, missed } = await channel();
  await keep('server-a', [[uuid(1), soon(), 'first']]);
  await keep('server-a', [
    [uuid(1), soon(), 'first'],
    [uuid(2), soon(), 'second'],
  ]);
  assert.deepEqual(await missed('server-b'), ['first', 'second']);
  // Its own rows are not read back by the sender.
  assert.deepEqual(await missed('server-a'), []);
  // At most `limit` rows: the newest, still in the order kept.
  assert.deepEqual(await missed('server-b', 1), ['second']);
});

test('an expired row is read back for a minute more, then the next keep removes it', { skip: missing ?? false }, async () => {
  const { sender, keep, missed } = await channel();
  await keep('server-a', [
    [uuid(1), Date.now() - 30_000, 'lapsed 30 s ago'],
    [uuid(2), Date.now() - 120_000, 'lapsed 2 min ago'],
  ]);
  assert.deepEqual(await missed('server-b'), ['lapsed 30 s ago']);
  await keep('server-a', [[uuid(3), soon(), 'fresh']]);
  const left = await sender.query<{ text: string }>('SELECT text FROM checkbridge_channel_kept ORDER BY seq');
  assert.deepEqual(
    left.rows.map((r) => r.text),
    ['lapsed 30 s ago', 'fresh'],
  );
});

test('rows kept before the listener first listened are not read back', { skip: missing ?? false }, async () => {
  const dsn = await freshDsn();
  const sender = await connect(dsn);
  await sender.query(CREATE_KEPT_SQL);
  await sender.query(KEEP_AND_NOTIFY_SQL, ['cb', ['old'], 'server-a', [uuid(1)], [soon()], ['old']]);
  const since = (await sender.query<{ now: Date }>(NOW_SQL)).rows[0]!.now;
  await sender.query(KEEP_AND_NOTIFY_SQL, ['cb', ['new'], 'server-a', [uuid(2)], [soon()], ['new']]);
  const rows = await sender.query<{ text: string }>(MISSED_SQL, ['cb', 'server-b', since, 100]);
  assert.deepEqual(
    rows.rows.map((r) => r.text),
    ['new'],
  );
});
