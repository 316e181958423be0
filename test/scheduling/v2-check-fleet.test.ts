// v2 CheckConfigs over a broker: legacy clients of other processes run them, in their own (legacy) wire format, and a
// round-robin subscription gives each request to one of them in turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisFor } from '../servers/redis.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const clientConf = (name: string, port: number) => ({
  client: { name, address: '127.0.0.1', subscriptions: ['linux', 'rr'] },
  redis: { host: '127.0.0.1', port },
  checkbridge: { keepalive_interval: 1 },
});

test(
  'over Redis: a v2 check runs on every legacy client of its subscription; round_robin gives each interval to exactly one, in turn',
  { timeout: 120_000 },
  async (t) => {
    const redis = await redisFor(t);
    if (!redis) return;
    const server = await fleetServer(t, 'redis', { 'conf.d/s.json': { redis: { host: '127.0.0.1', port: redis.port } } });
    const v2 = `http://${(await server.daemon.waitFor((l) => l.msg === 'v2 API listening')).address}`;
    await fleetClient(t, 'redis', { 'conf.d/c.json': clientConf('c1', redis.port) });
    await fleetClient(t, 'redis', { 'conf.d/c.json': clientConf('c2', redis.port) });
    await eventually(
      () => getJson(`${server.api}/clients`),
      (r) => r.body.length === 2,
      20_000,
    );
    const auth = `Bearer ${await adminToken(v2)}`;
    const put = (body: any) => call(`${v2}/api/core/v2/namespaces/default/checks/${body.metadata.name}`, 'PUT', auth, body);
    assert.equal((await put({ metadata: { name: 'fan' }, command: 'echo fan-:::name:::', interval: 1, publish: true, subscriptions: ['linux'] })).status, 201);
    assert.equal(
      (await put({ metadata: { name: 'turns' }, command: 'echo turn', interval: 1, publish: true, round_robin: true, subscriptions: ['rr'] })).status,
      201,
    );

    const seen = new Map<string, Set<number>>();
    await eventually(
      async () => {
        for (const r of (await getJson(`${server.api}/results`)).body as { client: string; check: { name: string; issued: number } }[]) {
          const key = `${r.client}/${r.check.name}`;
          if (!seen.has(key)) seen.set(key, new Set());
          seen.get(key)!.add(r.check.issued);
        }
        return seen;
      },
      (s) => (s.get('c1/turns')?.size ?? 0) + (s.get('c2/turns')?.size ?? 0) >= 8 && s.has('c1/fan') && s.has('c2/fan'),
      40_000,
    );
    const c1 = [...(seen.get('c1/turns') ?? [])];
    const c2 = [...(seen.get('c2/turns') ?? [])];
    assert.ok(c1.length > 0 && c2.length > 0, `turns: c1 ${c1}, c2 ${c2}`);
    assert.deepEqual(
      c1.filter((issued) => c2.includes(issued)),
      [],
      `an interval ran on both: c1 ${c1}, c2 ${c2}`,
    );

    for (const client of ['c1', 'c2']) {
      const event = (await call(`${v2}/api/core/v2/namespaces/default/events/${client}/fan`, 'GET', auth)).body;
      assert.equal(event.check.output.trim(), `fan-${client}`);
      assert.deepEqual(event.check.subscriptions, ['linux']);
    }
  },
);
