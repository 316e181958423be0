// Keepalives are written a turn's worth at a time: what an agent sends right after its keepalive still lands on the
// entity that keepalive registers, and every one of a burst is stored. An agent may not take the client record of a
// live legacy client's name, nor store an entity Sensu Go's clients could not decode.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { KeepaliveWriter } from '../../src/agentd/keepalives.js';
import { AgentSession } from '../../src/agentd/sessions.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { eventually, getJson } from '../helpers/instance.js';
import { adminToken } from '../api/v2/v2-helpers.js';
import { agentInstanceFor, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const NOW_MS = 1_700_000_000_000;

/** A writer on a real store, and a session over a real WebSocket on loopback for agent `name`. */
async function writerFor(t: TestContext, name: string) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await once(client, 'open');
  const [socket] = await accepted;
  t.after(async () => {
    client.terminate();
    for (const each of wss.clients) each.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const { logger, messages } = capturedLogger();
  const writer = new KeepaliveWriter({ store, settings: () => settings, onRegistration: () => undefined, logger, clock: new ManualClock(NOW_MS) });
  const session = new AgentSession({ name, namespace: 'default', user: 'agent', subscriptions: ['linux'], tls: false, mtls: false }, socket);
  return { store, writer, session, messages };
}

const agentKeepalive = (name: string, entity: Record<string, unknown> = {}) => ({
  entity: { metadata: { name }, entity_class: 'agent', subscriptions: ['linux'], ...entity },
  check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120 },
});

test("an agent's keepalive stores its entity and client record together, and its session learns them", async (t) => {
  const { store, writer, session } = await writerFor(t, 'web-01');
  await writer.submit(session, agentKeepalive('web-01'));
  assert.deepEqual([store.getClient('web-01')?.entity_class, store.getClient('web-01')?.namespace], ['agent', 'default']);
  assert.equal(store.resources.getEntity('default', 'web-01')?.entity_class, 'agent');
  assert.equal(session.lastKeepaliveMs, NOW_MS);
  assert.deepEqual([...session.subscriptions].sort(), ['entity:web-01', 'linux']);
});

test("a live legacy client's name is refused to an agent, said once; the agent is then a member of no subscription", async (t) => {
  const { store, writer, session, messages } = await writerFor(t, 'legacy-host');
  store.putClient({ name: 'legacy-host', address: '10.0.0.1', subscriptions: ['linux'], timestamp: NOW_MS / 1000 });
  await writer.submit(session, agentKeepalive('legacy-host'));
  await writer.submit(session, agentKeepalive('legacy-host'));
  assert.equal(store.getClient('legacy-host')?.address, '10.0.0.1', 'the legacy record is kept');
  assert.equal(store.resources.getEntity('default', 'legacy-host'), null);
  assert.deepEqual([...session.subscriptions], []);
  assert.equal(messages().filter((m) => m === "agent keepalive refused: its name is another client's").length, 1);
});

test("a legacy client's record whose keepalive went critical is taken over, and that is said", async (t) => {
  const { store, writer, session, messages } = await writerFor(t, 'moved');
  store.putClient({ name: 'moved', address: '10.0.0.1', subscriptions: [], timestamp: NOW_MS / 1000 - 3600 });
  await writer.submit(session, agentKeepalive('moved'));
  assert.equal(store.getClient('moved')?.entity_class, 'agent');
  assert.ok(messages().includes('agent takes over a stale client record of its name'));
});

test('an entity Sensu Go could not decode is refused and the stored one kept', async (t) => {
  const { store, writer, session, messages } = await writerFor(t, 'odd');
  await writer.submit(session, agentKeepalive('odd', { system: { hostname: 'odd-host' } }));
  await writer.submit(session, agentKeepalive('odd', { system: { hostname: 5 } }));
  assert.equal(store.resources.getEntity('default', 'odd')?.system?.hostname, 'odd-host');
  assert.ok(messages().includes('agent keepalive refused: ill-typed entity'));
});

test("a posted entity that is a list brings nothing of its own: the agent is registered with its handshake's name and subscriptions", async (t) => {
  const { store, writer, session } = await writerFor(t, 'listed');
  await writer.submit(session, { entity: ['stray'], check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120 } });
  const entity = store.resources.getEntity('default', 'listed');
  assert.deepEqual(Object.keys(entity ?? {}).sort(), ['entity_class', 'last_seen', 'metadata', 'sensu_agent_version', 'subscriptions', 'system']);
  assert.deepEqual(entity?.subscriptions, ['linux', 'entity:listed']);
});

const AGENTS = 40;
const basic = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');

function open(url: string, name: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', 'Sensu-Subscriptions': 'linux', authorization: basic },
    });
    // The agent sends nothing before its entity configuration arrives.
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

const keepalive = (name: string) =>
  `keepalive\n${JSON.stringify({ entity: { metadata: { name, labels: { team: 'blue' } }, entity_class: 'agent', subscriptions: ['linux'], system: { hostname: name }, sensu_agent_version: '6.12.0' }, check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120 } })}`;
const event = (name: string) =>
  `event\n${JSON.stringify({ entity: { metadata: { name }, entity_class: 'agent' }, check: { metadata: { name: 'disk' }, status: 1, output: 'disk 91%', interval: 10 } })}`;

test("a burst of first keepalives, each followed at once by an event: every entity and client stored, each event on its keepalive's entity", async (t) => {
  const { v2, api, agentd } = await agentInstanceFor(t, { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } });
  const sockets = await Promise.all(Array.from({ length: AGENTS }, (_, i) => open(agentd, `burst-${i}`)));
  t.after(() => sockets.forEach((ws) => ws.terminate()));
  sockets.forEach((ws, i) => {
    ws.send(keepalive(`burst-${i}`));
    ws.send(event(`burst-${i}`));
  });
  const headers = { authorization: `Bearer ${await adminToken(v2)}` };
  const events = await eventually(
    async () =>
      ((await getJson(`${v2}/api/core/v2/namespaces/default/events`, { headers })).body as Record<string, any>[]).filter(
        (e) => e.check.metadata.name === 'disk',
      ),
    (list) => list.length === AGENTS,
    30_000,
  );
  assert.equal(events.length, AGENTS, 'every event stored');
  for (const stored of events) {
    const name = String(stored.entity.metadata.name);
    assert.equal(stored.entity.entity_class, 'agent', name);
    assert.deepEqual(stored.entity.metadata.labels, { team: 'blue' }, `${name}: the keepalive's labels`);
    assert.deepEqual(stored.entity.subscriptions, ['linux', `entity:${name}`], `${name}: the keepalive's subscriptions`);
    assert.equal(stored.entity.system.hostname, name, `${name}: the keepalive's system facts`);
  }
  const entities = (await getJson(`${v2}/api/core/v2/namespaces/default/entities`, { headers })).body as Record<string, any>[];
  assert.equal(entities.filter((e) => String(e.metadata.name).startsWith('burst-')).length, AGENTS, 'every entity stored');
  const clients = (await getJson(`${api}/clients`)).body as Record<string, any>[];
  assert.equal(clients.filter((c) => String(c.name).startsWith('burst-') && c.entity_class === 'agent').length, AGENTS, 'every client record stored');
});
