// The cluster channel as the daemon runs it: its signing key kept in the store, and the channel listening from the
// service's start until its stop, over a real PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChannelService, channelKey, clusterChannelFor } from '../../src/cluster/index.js';
import { postgresFor } from '../servers/postgres.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { until } from '../helpers/wait.js';

test('the key is made once and kept in the store: the same on every read, another in another store', (t) => {
  const [one, other] = [sqliteStore(t), sqliteStore(t)];
  const key = channelKey(one.resources);
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.equal(channelKey(one.resources), key);
  assert.notEqual(channelKey(other.resources), key);
});

test('alone, there is no channel: the service starts and stops with nothing to do', async () => {
  const service = new ChannelService(null);
  assert.equal(service.name, 'cluster channel');
  await service.start();
  await service.stop();
});

test('two servers: the service hears the other from start, and nothing after stop', { timeout: 60_000 }, async (t) => {
  const server = await postgresFor(t);
  if (!server) return;
  const store = sqliteStore(t);
  const { logger } = capturedLogger();
  const keyOf = () => channelKey(store.resources);
  const [mine, theirs] = [
    clusterChannelFor(server.url(), 'service_channel', logger, keyOf)!,
    clusterChannelFor(server.url(), 'service_channel', logger, keyOf)!,
  ];
  t.after(() => theirs.close());
  const heard: unknown[] = [];
  mine.onMessage((message) => heard.push(message));
  const service = new ChannelService(mine);
  await Promise.all([service.start(), theirs.start()]);
  theirs.publish({ n: 1 });
  assert.ok(await until(() => heard.length === 1, 15_000), 'heard after start');
  await service.stop();
  theirs.publish({ n: 2 });
  await sleep(500);
  assert.deepEqual(heard, [{ n: 1 }]);
});
