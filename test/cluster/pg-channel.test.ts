// The cluster channel against a real PostgreSQL: a message larger than NOTIFY's 8000-byte payload, with non-ASCII
// text, reaches the other server whole and in order; the sender does not hear itself; a server that reconnects hears again.
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresFor } from '../servers/postgres.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';
import { clusterChannelFor } from '../../src/cluster/index.js';

test('a channel between two servers carries large non-ASCII messages whole, in order, to the other server only', { timeout: 60_000 }, async (t) => {
  const server = await postgresFor(t);
  if (!server) return;
  const { logger } = capturedLogger();
  const [one, two] = [
    clusterChannelFor(server.url(), 'test_channel', logger, () => 'key')!,
    clusterChannelFor(server.url(), 'test_channel', logger, () => 'key')!,
  ];
  t.after(() => Promise.all([one.close(), two.close()]));
  await Promise.all([one.start(), two.start()]);
  const heardByOne: unknown[] = [];
  const heardByTwo: unknown[] = [];
  one.onMessage((m) => heardByOne.push(m));
  two.onMessage((m) => heardByTwo.push(m));
  const big = { n: 0, text: 'é→日本'.repeat(5000) + '\u{1F600}' };
  one.publish(big);
  for (let n = 1; n <= 50; n++) one.publish({ n });
  assert.ok(await until(() => heardByTwo.length === 51, 20_000), `heard ${heardByTwo.length} of 51`);
  assert.deepEqual(heardByTwo[0], big);
  assert.deepEqual(
    heardByTwo.map((m) => (m as { n: number }).n),
    Array.from({ length: 51 }, (_, i) => i),
  );
  two.publish({ from: 'two' });
  assert.ok(await until(() => heardByOne.length === 1, 20_000));
  assert.deepEqual(heardByOne, [{ from: 'two' }]);
  assert.equal(heardByTwo.length, 51, 'a server heard its own message');

  // The listener's connection is ended by the server: it reconnects and hears what comes after.
  await server.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'checkbridge channel' AND pid <> pg_backend_pid()");
  assert.ok(
    await until(() => {
      one.publish({ after: true });
      return heardByTwo.some((m) => (m as { after?: boolean }).after === true);
    }, 20_000),
    'no message heard after the reconnection',
  );
});

test(
  'a kept message reaches a server whose connection was cut, read back from its signed row; a row not signed is dropped, logged',
  { timeout: 60_000 },
  async (t) => {
    const server = await postgresFor(t);
    if (!server) return;
    const { logger, messages } = capturedLogger();
    const [one, two] = [
      clusterChannelFor(server.url(), 'kept_channel', logger, () => 'key')!,
      clusterChannelFor(server.url(), 'kept_channel', logger, () => 'key')!,
    ];
    t.after(() => Promise.all([one.close(), two.close()]));
    await Promise.all([one.start(), two.start()]);
    const heardByTwo: unknown[] = [];
    two.onMessage((m) => heardByTwo.push(m));
    // Rows no NOTIFY announced: only a reconnection's read-back finds them.
    const json = JSON.stringify({ row: 'signed' });
    const signed = `${createHmac('sha256', 'key').update(json).digest('hex')} ${json}`;
    const row = (text: string) => `(gen_random_uuid(), 'kept_channel', 'elsewhere', now() + interval '1 minute', '${text}')`;
    await server.query(
      `INSERT INTO checkbridge_channel_kept (id, channel, sender, until, text) VALUES ${row(signed)}, ${row(`${'0'.repeat(64)} {"row":"forged"}`)}`,
    );
    await server.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'checkbridge channel' AND pid <> pg_backend_pid()");
    // Published while both connections are away: held by the sender, or read back by the receiver.
    for (let n = 0; n < 3; n++) one.publish({ n }, Date.now() + 60_000);
    one.publish({ live: 'only' });
    const heard = (match: (m: Record<string, unknown>) => boolean) => heardByTwo.filter((m) => match(m as Record<string, unknown>)).length;
    assert.ok(await until(() => heard((m) => m.row === 'signed') > 0 && heard((m) => typeof m.n === 'number') >= 3, 20_000), JSON.stringify(heardByTwo));
    assert.equal(
      heard((m) => m.row === 'forged'),
      0,
      'a row not signed with the key was taken',
    );
    assert.ok(messages().includes('cluster channel: a kept message that does not parse, dropped'));
    assert.deepEqual([...new Set(heardByTwo.filter((m) => typeof (m as { n?: number }).n === 'number').map((m) => (m as { n: number }).n))], [0, 1, 2]);
  },
);
