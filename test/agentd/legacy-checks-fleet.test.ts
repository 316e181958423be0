// One fleet over a broker: a legacy client of another process (over Redis) and a real Sensu Go agent under one
// checkbridge server, the same conf.d checks reaching each in its own wire format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisFor } from '../servers/redis.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';
import { agentSkipReason, startAgent, agentFlags, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
type Result = { client: string; check: { name: string; issued: number; output: string } };

test('over Redis: a conf.d check runs on the legacy client with its attributes and on the agent with its labels; a roundrobin check gives each interval to one of them, in turn', { skip, timeout: 120_000 }, async (t) => {
  const redis = await redisFor(t);
  if (!redis) return;
  const checks = {
    disk: { command: 'echo warn=:::disk.warning|80:::', subscribers: ['linux'], interval: 1, handlers: [] },
    turns: { command: 'echo turn', subscribers: ['roundrobin:web'], interval: 1, handlers: [] },
  };
  const server = await fleetServer(t, 'redis', { 'conf.d/s.json': { redis: { host: '127.0.0.1', port: redis.port }, checks } }, { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD });
  const agentd = `ws://${(await server.daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address}`;
  await fleetClient(t, 'redis', {
    'conf.d/c.json': { client: { name: 'c1', address: '127.0.0.1', subscriptions: ['linux', 'roundrobin:web'], disk: { warning: 70 } }, redis: { host: '127.0.0.1', port: redis.port }, checkbridge: { keepalive_interval: 1 } },
  });
  const agent = await startAgent(t, agentd, 'runner-1', [...agentFlags(), '--subscriptions', 'linux,web', '--labels', 'disk_warning=90']);
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

  const seen = new Map<string, Set<number>>();
  const outputs = new Map<string, string>();
  await eventually(async () => {
    for (const r of (await getJson(`${server.api}/results`)).body as Result[]) {
      const key = `${r.client}/${r.check.name}`;
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key)!.add(r.check.issued);
      outputs.set(key, r.check.output.trim());
    }
    return seen;
  }, (s) => (s.get('c1/turns')?.size ?? 0) >= 3 && (s.get('runner-1/turns')?.size ?? 0) >= 3 && s.has('c1/disk') && s.has('runner-1/disk'), 60_000);
  assert.equal(outputs.get('c1/disk'), 'warn=70');
  assert.equal(outputs.get('runner-1/disk'), 'warn=90');
  const legacy = [...(seen.get('c1/turns') ?? [])];
  const go = [...(seen.get('runner-1/turns') ?? [])];
  assert.ok(legacy.length >= 3 && go.length >= 3, `turns: c1 ${legacy}, runner-1 ${go}`);
  assert.deepEqual(legacy.filter((issued) => go.includes(issued)), [], `an interval ran on both: c1 ${legacy}, runner-1 ${go}`);
});
