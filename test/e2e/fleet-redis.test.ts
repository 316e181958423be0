// checkbridge server and clients as separate processes over a real Redis, on the legacy Redis transport wire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { redisFor } from '../servers/redis.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, postJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const clientConf = (name: string) => ({
  client: {
    name,
    address: '127.0.0.1',
    subscriptions: ['linux', 'roundrobin:pool'],
    keepalive: { thresholds: { warning: 3, critical: 5 } },
    signature: `sig-${name}`,
  },
  checkbridge: { keepalive_interval: 1 },
});

function serverConf(port: number, dir: string) {
  return {
    redis: { host: '127.0.0.1', port, db: 3 },
    checkbridge: { monitor_interval: 1 },
    sensu: { server: { max_message_size: 4096 } },
    checks: {
      fan: { command: 'echo fan-from-:::name:::; exit 1', subscribers: ['linux'], interval: 1, handlers: ['tx'] },
      rr: { command: `echo :::name::: >> ${join(dir, 'rr.log')}`, subscribers: ['roundrobin:pool'], interval: 60, publish: false },
    },
    handlers: { tx: { type: 'transport', pipe: { type: 'direct', name: 'cb_events' } } },
  };
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

test(
  'a checkbridge server and two checkbridge clients over Redis: legacy keys, keepalives, fanout, roundrobin, events, keepalive critical, transport handlers, bad input',
  { timeout: 120_000 },
  async (t) => {
    const redis = await redisFor(t);
    if (!redis) return;
    // Lists live in the selected db (3) and carry it in their names too.
    const watch = new Redis({ port: redis.port, host: '127.0.0.1', db: 3, lazyConnect: true, maxRetriesPerRequest: 0 });
    watch.on('error', () => undefined);
    await watch.connect();
    t.after(() => void watch.disconnect());
    // What the server publishes on the keepalives list and the linux channel, seen through MONITOR.
    // Never reconnecting: a MONITOR connection's ready check would read monitor lines after the restart below.
    const monitor = await new Redis({ port: redis.port, host: '127.0.0.1', retryStrategy: () => null }).monitor();
    monitor.on('error', () => undefined);
    const commands: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => commands.push(args));
    t.after(() => void monitor.disconnect());

    const dir = makeTree({});
    t.after(async () => removeTree(dir));
    const rrLog = join(dir, 'rr.log');
    const server = await fleetServer(t, 'redis', { 'conf.d/s.json': serverConf(redis.port, dir) });
    // Clients: the Hash form with db 3 from a file, and REDIS_URL (whose /db legacy ignores) would be db 0: both use the Hash here.
    const c1 = await fleetClient(t, 'redis', { 'conf.d/c.json': { ...clientConf('c1'), redis: { port: redis.port, db: 3 } } });
    const c2 = await fleetClient(t, 'redis', { 'conf.d/c.json': { ...clientConf('c2'), redis: { port: redis.port, db: 3 } } });

    const clients = await eventually(
      () => getJson(`${server.api}/clients`),
      (r) => r.body.length === 2,
      15_000,
    );
    assert.deepEqual(clients.body.map((c: { name: string }) => c.name).sort(), ['c1', 'c2']);
    const fan = await eventually(
      () => getJson(`${server.api}/events`),
      (r) => r.body.filter((e: { check: { name: string } }) => e.check.name === 'fan').length === 2,
      15_000,
    );
    assert.deepEqual(
      fan.body
        .filter((e: { check: { name: string } }) => e.check.name === 'fan')
        .map((e: { check: { output: string } }) => e.check.output.trim())
        .sort(),
      ['fan-from-c1', 'fan-from-c2'],
    );

    // The legacy key names: lists with RPUSH/BLPOP, channels with PUBLISH/SUBSCRIBE, `<db>` in the name.
    const seen = (command: string, key: string) => commands.some((args) => args[0]?.toLowerCase() === command && args[1] === key);
    assert.ok(seen('rpush', 'transport:3:list:keepalives'));
    assert.ok(seen('rpush', 'transport:3:list:results'));
    assert.ok(seen('blpop', 'transport:3:list:results'));
    assert.ok(seen('blpop', 'transport:3:list:keepalives'));
    assert.ok(seen('publish', 'transport:3:channel:linux'));
    assert.ok(seen('subscribe', 'transport:3:channel:linux'));
    assert.ok(seen('subscribe', 'transport:3:channel:client:c1'));
    assert.ok(seen('blpop', 'transport:3:list:roundrobin:pool'));
    const result = commands.find((args) => args[0]?.toLowerCase() === 'rpush' && args[1] === 'transport:3:list:results' && args[2]?.includes('"fan"'));
    assert.deepEqual(Object.keys(JSON.parse(result![2]!)), ['client', 'check', 'signature']);

    // The transport handler pushed the events onto its direct list.
    const pushed = await eventually(
      () => watch.lrange('transport:3:list:cb_events', 0, -1),
      (l) => l.length >= 2,
      10_000,
    );
    assert.equal(JSON.parse(pushed[0]!).check.name, 'fan');

    // Round robin through the shared list: one execution per request.
    for (let i = 0; i < 4; i++) {
      assert.equal((await postJson(`${server.api}/request`, { check: 'rr' })).status, 202);
      await sleep(1100);
    }
    await eventually(
      async () => readLines(rrLog).length,
      (n) => n >= 4,
      10_000,
    );
    await sleep(1000);
    assert.equal(readLines(rrLog).length, 4);
    assert.equal(new Set(readLines(rrLog)).size, 2);

    // Bad input pushed straight onto the lists: dropped, and what follows is processed.
    for (const body of [
      'null',
      '[]',
      '{"client":"x","check":"str"}',
      'nope',
      JSON.stringify({ client: 'x', check: { name: 'big', output: 'x'.repeat(5000), status: 0 } }),
    ])
      await watch.rpush('transport:3:list:results', body);
    for (const body of ['{"name":"k2"}', 'null']) await watch.rpush('transport:3:list:keepalives', body);
    await watch.rpush('transport:3:list:results', JSON.stringify({ client: 'good', check: { name: 'after', output: 'fine', status: 0 } }));
    await eventually(
      () => getJson(`${server.api}/results/good`),
      (r) => r.status === 200 && r.body.length === 1,
      10_000,
    );
    assert.equal(server.daemon.logs.filter((l) => l.msg === 'discarding invalid result').length, 5);
    assert.equal(server.daemon.logs.filter((l) => l.msg === 'discarding invalid keepalive').length, 2);

    // A stopped client goes critical on keepalive.
    await c2.daemon.stop('SIGKILL');
    const critical = await eventually(
      () => getJson(`${server.api}/events/c2/keepalive`),
      (r) => r.status === 200 && r.body.check.status === 2,
      20_000,
    );
    assert.match(critical.body.check.output, /No keepalive sent from client/);

    const info = await getJson(`${server.api}/info`);
    assert.equal(info.body.transport.name, 'redis');
    assert.equal(info.body.transport.connected, true);
    assert.equal(typeof info.body.transport.results.messages, 'number');
    assert.equal((await getJson(`${c1.agent}/info`)).body.transport.connected, true);

    // Redis restarted: the client comes back and publishes a fresh keepalive.
    const mark = c1.daemon.logs.length;
    monitor.disconnect();
    await redis.kill();
    await sleep(1000);
    await redis.start();
    await c1.daemon.waitFor((l) => l.msg === 'reconnected to transport', 20_000, mark);
    const restartedAt = Date.now();
    await eventually(
      () => getJson(`${server.api}/clients/c1`),
      (r) => r.status === 200 && r.body.timestamp * 1000 >= restartedAt - 1500,
      15_000,
    );
  },
);
