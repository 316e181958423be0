// A frozen server's Redis consumer: what it takes from the results list while its event loop cannot run is bounded to
// a few dozen (Redis has no acknowledgement: taken is held back from the other servers until it resumes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { redisFor } from '../servers/redis.js';
import { fleetServer } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';
import { assertMemoryReturned, rssMb } from './flow.js';

const PUSHED = 400;

test('a frozen server takes at most 64 results from the Redis list; resumed, it stores every one', { timeout: 60_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const list = 'transport:3:list:results';
  const watch = new Redis({ port: redis.port, host: '127.0.0.1', db: 3, maxRetriesPerRequest: 0 });
  t.after(() => void watch.disconnect());
  const server = await fleetServer(t, 'redis', { 'conf.d/server.json': { redis: { host: '127.0.0.1', port: redis.port, db: 3 } } });
  // Its reader is blocked in BLPOP on the list once a first result has gone through.
  await watch.rpush(list, JSON.stringify({ client: 'c', check: { name: 'first', output: 'x', status: 0 } }));
  await eventually(
    () => getJson(`${server.api}/results/c`),
    (r) => r.status === 200 && r.body.length === 1,
    15_000,
  );
  const before = rssMb(server.daemon.proc.pid!);
  server.daemon.proc.kill('SIGSTOP');
  t.after(() => void server.daemon.proc.kill('SIGCONT'));
  const bodies = Array.from({ length: PUSHED }, (_, i) => JSON.stringify({ client: 'c', check: { name: `k${i}`, output: 'x', status: 0 } }));
  await watch.rpush(list, ...bodies);
  // Whatever the pending BLPOP and the pop pipelined behind it take is taken at once, Redis-side.
  await sleep(1000);
  const taken = PUSHED - (await watch.llen(list));
  t.diagnostic(`the frozen server took ${taken} of ${PUSHED} results`);
  assert.ok(taken >= 1 && taken <= 64, `the frozen server took ${taken} results`);
  server.daemon.proc.kill('SIGCONT');
  const stored = await eventually(
    async () => (await getJson(`${server.api}/results/c`)).body.length,
    (n) => n === PUSHED + 1,
    20_000,
  );
  assert.equal(stored, PUSHED + 1, 'every result is stored once resumed');
  assertMemoryReturned(t, 'resumed server', before, rssMb(server.daemon.proc.pid!));
});
