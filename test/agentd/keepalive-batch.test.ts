// Keepalives are written a turn's worth at a time (src/agentd/keepalives.ts): what an agent sends right after its
// keepalive still lands on the entity that keepalive registers, and every one of a burst is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson } from '../helpers/instance.js';
import { adminToken } from '../api/v2/v2-helpers.js';
import { agentInstanceFor, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

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
