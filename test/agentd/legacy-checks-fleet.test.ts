// One fleet over a broker: a legacy client of another process (over Redis, then RabbitMQ) and a real Sensu Go agent
// under one checkbridge server, the same conf.d checks reaching each in its own wire format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisFor } from '../servers/redis.js';
import { rabbitFor } from '../servers/rabbitmq.js';
import { fleetServer, fleetClient } from '../helpers/fleet.js';
import { getJson, eventually } from '../helpers/instance.js';
import { agentSkipReason, startAgent, agentFlags, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
type Result = { client: string; check: { name: string; issued: number; output: string } };

type Broker = { name: 'redis' | 'rabbitmq'; settings: Record<string, unknown>; env: NodeJS.ProcessEnv };
type Starter = (t: Parameters<typeof redisFor>[0]) => Promise<Broker | null>;

const BROKERS: [string, Starter][] = [
  [
    'Redis',
    async (t) => {
      const redis = await redisFor(t);
      return redis && { name: 'redis', settings: { redis: { host: '127.0.0.1', port: redis.port } }, env: {} };
    },
  ],
  [
    'RabbitMQ',
    async (t) => {
      const rabbit = await rabbitFor(t);
      return rabbit && { name: 'rabbitmq', settings: { rabbitmq: rabbit.url }, env: { RABBITMQ_URL: rabbit.url } };
    },
  ],
];

for (const [label, start] of BROKERS) {
  test(
    `over ${label}: a conf.d check runs on the legacy client with its attributes and on the agent with its labels; a roundrobin check gives each interval to one of them, in turn`,
    { skip, timeout: 180_000 },
    async (t) => {
      const broker = await start(t);
      if (!broker) return;
      await runFleet(t, broker);
    },
  );
}

async function runFleet(t: Parameters<typeof redisFor>[0], broker: Broker): Promise<void> {
  const checks = {
    disk: { command: 'echo warn=:::disk.warning|80:::', subscribers: ['linux'], interval: 1, handlers: [] },
    turns: { command: 'echo turn', subscribers: ['roundrobin:web'], interval: 1, handlers: [] },
  };
  const server = await fleetServer(
    t,
    broker.name,
    { 'conf.d/s.json': { ...broker.settings, checks } },
    { ...broker.env, CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD },
  );
  const agentd = `ws://${(await server.daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address}`;
  await fleetClient(
    t,
    broker.name,
    {
      'conf.d/c.json': {
        client: { name: 'c1', address: '127.0.0.1', subscriptions: ['linux', 'roundrobin:web'], disk: { warning: 70 } },
        ...broker.settings,
        checkbridge: { keepalive_interval: 1 },
      },
    },
    broker.env,
  );
  const agent = await startAgent(t, agentd, 'runner-1', [...agentFlags(), '--subscriptions', 'linux,web', '--labels', 'disk_warning=90']);
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

  const seen = new Map<string, Set<number>>();
  const outputs = new Map<string, string>();
  await eventually(
    async () => {
      for (const r of (await getJson(`${server.api}/results`)).body as Result[]) {
        const key = `${r.client}/${r.check.name}`;
        if (!seen.has(key)) seen.set(key, new Set());
        seen.get(key)!.add(r.check.issued);
        outputs.set(key, r.check.output.trim());
      }
      return seen;
    },
    (s) => (s.get('c1/turns')?.size ?? 0) >= 3 && (s.get('runner-1/turns')?.size ?? 0) >= 3 && s.has('c1/disk') && s.has('runner-1/disk'),
    60_000,
  );
  assert.equal(outputs.get('c1/disk'), 'warn=70');
  assert.equal(outputs.get('runner-1/disk'), 'warn=90');
  const legacy = [...(seen.get('c1/turns') ?? [])];
  const go = [...(seen.get('runner-1/turns') ?? [])];
  assert.ok(legacy.length >= 3 && go.length >= 3, `turns: c1 ${legacy}, runner-1 ${go}`);
  assert.deepEqual(
    legacy.filter((issued) => go.includes(issued)),
    [],
    `an interval ran on both: c1 ${legacy}, runner-1 ${go}`,
  );
}
