// The store's connections by use: reads awaited without blocking the thread go to the reader connection, so a statement
// that blocks the thread never queues behind them (200 agents' handshakes once held a user lookup for half a second).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresForFile } from '../../servers/postgres.js';
import { storeBehindProxy } from '../../helpers/proxied-store.js';

const { server, missing } = await postgresForFile();

test('postgres: ten awaited reads go to the reader connection, a blocking statement meanwhile takes one round trip on its own', async (t) => {
  if (!server) return void t.skip(missing!);
  await server.query('CREATE DATABASE lanes');
  const { store, proxy } = await storeBehindProxy(t, server.url('postgres', 'lanes'), 20);
  // Both connections open and quiet before counting.
  assert.equal(store.getClient('warm'), null);
  assert.equal(await store.read({ pairs: [], clients: ['warm'] }, () => store.getClient('warm')), null);
  const before = await proxy.counts();
  const reads = Array.from({ length: 10 }, (_, i) => store.read({ pairs: [], clients: [`agent-${i}`] }, () => store.getClient(`agent-${i}`)));
  assert.equal(store.getClient('someone'), null);
  assert.deepEqual(
    await Promise.all(reads),
    Array.from({ length: 10 }, () => null),
  );
  const after = await proxy.counts();
  const trips = after.per_connection.map((n, i) => n - (before.per_connection[i] ?? 0)).filter((n) => n > 0);
  assert.deepEqual(
    trips.sort((a, b) => a - b),
    [1, 10],
    `round trips per connection: ${JSON.stringify({ before: before.per_connection, after: after.per_connection })}`,
  );
});
