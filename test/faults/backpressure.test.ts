// PostgreSQL slow to answer (4 s a round trip): the intake fills and the doors push back — a PUT gets 503 with
// Retry-After, the agents' frames are left unread — while /health keeps answering and says the store is degraded;
// once PostgreSQL answers at speed again, every event the agents sent is stored (none was dropped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { setTimeout as sleep } from 'node:timers/promises';
import { getJson, startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresFor } from '../servers/postgres.js';
import { startDelayProxy } from '../bench/load/pg-latency-servers.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { freePort } from '../helpers/net.js';

const AGENTS = 10;
const EVENTS = 300;
const PASSWORD = 'backpressure-agent';

function openAgent(url: string, name: string): Promise<WebSocket> {
  const authorization = 'Basic ' + Buffer.from(`agent:${PASSWORD}`).toString('base64');
  const ws = new WebSocket(url, {
    headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', 'Sensu-Subscriptions': 'bp', authorization },
  });
  ws.on('message', () => undefined);
  return new Promise((resolve, reject) => (ws.once('open', () => resolve(ws)), ws.once('error', reject)));
}

const now = () => Math.floor(Date.now() / 1000);
const frame = (type: string, body: object) => Buffer.from(`${type}\n${JSON.stringify(body)}`);
const entity = (name: string) => ({ entity_class: 'agent', metadata: { name, namespace: 'default' }, subscriptions: ['bp'] });
const event = (name: string, check: string) => ({
  entity: entity(name),
  check: { metadata: { name: check, namespace: 'default' }, status: 1, output: 'slow store', interval: 60, executed: now(), issued: now() },
});

async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 120_000): Promise<T> {
  let last: T | undefined;
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(250)) if (done((last = await read()))) return last;
  throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(last).slice(0, 400)})`);
}

test(
  'PostgreSQL slow: doors push back (503 Retry-After, frames unread), /health answers degraded, and every agent event is stored after',
  { timeout: 420_000 },
  async (t) => {
    const pg = await postgresFor(t);
    if (!pg) return;
    const proxy = await startDelayProxy(pg.port, 0);
    t.after(() => proxy.stop());
    const root = makeTree({ 'conf.d/config.json': { client: { name: 'bp-server', address: '127.0.0.1', subscriptions: [] } } });
    t.after(() => removeTree(root));
    const agentd = await freePort();
    const dsn = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
    const instance = await startInstance(root, ['--store-dsn', dsn, '--agentd-port', String(agentd)], { CHECKBRIDGE_AGENT_PASSWORD: PASSWORD });
    t.after(() => instance.daemon.stop('SIGKILL'));
    const token = await adminToken(instance.v2);
    const agents = await Promise.all(Array.from({ length: AGENTS }, (_, i) => openAgent(`ws://127.0.0.1:${agentd}`, `bp-${i}`)));
    t.after(() => agents.forEach((ws) => ws.terminate()));
    agents.forEach((ws, i) =>
      ws.send(frame('keepalive', { entity: entity(`bp-${i}`), check: { metadata: { name: 'keepalive' }, interval: 20, ttl: 0 }, timestamp: now() })),
    );
    const entities = () => call(`${instance.v2}/api/core/v2/namespaces/default/entities`, 'GET', `Bearer ${token}`);
    await eventually('the agents registered', entities, (r) => Array.isArray(r.body) && r.body.length >= AGENTS);

    await proxy.setDelay(4000);
    for (let j = 0; j < EVENTS; j++) agents.forEach((ws, i) => ws.send(frame('event', event(`bp-${i}`, `c-${j}`))));
    const put = () => call(`${instance.v2}/api/core/v2/namespaces/default/events/web/http`, 'PUT', `Bearer ${token}`, event('web', 'http'));
    const refused = await eventually('a PUT refused while the intake is full', put, (r) => r.status === 503);
    t.diagnostic(`refused: ${refused.status} ${JSON.stringify(refused.body)}`);
    assert.equal(refused.headers.get('retry-after'), '1');
    // Refused before it is queued (the intake full), or its group commit given up (the store behind): come back, both.
    assert.match(String(refused.body.message), /the intake is full|the shared PostgreSQL store is unavailable/);
    // A liveness bound, not a speed: a periodic read of the main connection may still wait one 4 s round trip. While the
    // store stays this slow, /health comes to say so: a group commit waiting, or the listening
    // connection's probes unanswered, whichever it sees first.
    const healthOf = () => getJson(`${instance.v2}/health`, { signal: AbortSignal.timeout(10_000) });
    const health = await eventually(
      '/health saying the store is degraded',
      healthOf,
      (r) => r.status === 200 && /^DEGRADED: /.test(String(r.body.Alarms)),
      60_000,
    );
    assert.match(String(health.body.Alarms), /^DEGRADED: (a group commit has waited \d+ s for PostgreSQL|not listening for other servers' changes)/);
    t.diagnostic(`/health while full: ${JSON.stringify(health.body).slice(0, 300)}`);
    await proxy.setDelay(0);
    const stored = await eventually(
      'every agent event stored',
      () => call(`${instance.v2}/api/core/v2/namespaces/default/events`, 'GET', `Bearer ${token}`),
      (r) => Array.isArray(r.body) && r.body.filter((e: any) => /^c-/.test(e.check.metadata.name)).length === AGENTS * EVENTS,
      240_000,
    );
    assert.equal(stored.body.filter((e: any) => /^c-/.test(e.check.metadata.name)).length, AGENTS * EVENTS);
    assert.equal((await put()).status, 201, 'PUTs are taken again');
  },
);
