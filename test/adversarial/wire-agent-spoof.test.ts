// A keepalive over the broker that claims to be a Sensu Go agent's (entity_class agent, a namespace) would make its
// results and the legacy views read another namespace's events: only the agent WebSocket writes an agent's record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { redisFor } from '../servers/redis.js';
import { fleetServer } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';

const keepalive = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, address: '127.0.0.1', subscriptions: [], version: '1.9.0', timestamp: Math.floor(Date.now() / 1000), ...extra });

test('Redis: a keepalive claiming to be an agent of another namespace is logged and dropped', { timeout: 120_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const server = await fleetServer(t, 'redis', { 'conf.d/s.json': { redis: { host: '127.0.0.1', port: redis.port } } });
  const peer = new Redis({ port: redis.port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  peer.on('error', () => undefined);
  t.after(() => void peer.disconnect());
  await peer.rpush('transport:0:list:keepalives', keepalive('posing', { entity_class: 'agent', namespace: 'team-b' }));
  await peer.rpush('transport:0:list:keepalives', keepalive('honest'));
  await eventually(
    () => getJson(`${server.api}/clients/honest`),
    (r) => r.status === 200,
    15_000,
  );
  assert.equal((await getJson(`${server.api}/clients/posing`)).status, 404);
  const dropped = server.daemon.logs.filter((l) => l.msg === 'discarding invalid keepalive').map((l) => String(l.reason));
  assert.deepEqual(dropped, ['entity_class "agent" is for Sensu Go agents, which connect over the agent WebSocket']);
  assert.equal(server.daemon.proc.exitCode, null);
});
