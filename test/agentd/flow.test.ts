// An agent that sends faster than the daemon stores: its socket stops being read past 256 frames not yet stored
// and resumes at half (src/agentd/server.ts). Nothing it sent is lost or reordered on the way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson } from '../helpers/instance.js';
import { adminToken } from '../api/v2/v2-helpers.js';
import { agentInstanceFor, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const CHECKS = 100;
const EACH = 12;

test('an agent sending 1,200 events without waiting: every one stored, in order, and the agent stays connected', async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } });
  const headers = {
    'Sensu-AgentName': 'flat-out',
    'Sensu-Namespace': 'default',
    'Sensu-User': 'agent',
    'Sensu-Subscriptions': 'linux',
    authorization: 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64'),
  };
  const ws = await new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(agentd, { headers });
    socket.once('message', () => resolve(socket));
    socket.once('error', reject);
  });
  t.after(() => ws.terminate());
  ws.send(
    `keepalive\n${JSON.stringify({ entity: { metadata: { name: 'flat-out' }, entity_class: 'agent' }, check: { metadata: { name: 'keepalive' }, timeout: 120 } })}`,
  );
  for (let n = 0; n < EACH; n++) {
    for (let c = 0; c < CHECKS; c++)
      ws.send(
        `event\n${JSON.stringify({ entity: { metadata: { name: 'flat-out' } }, check: { metadata: { name: `c-${c}` }, status: n % 2, output: `run ${n}`, interval: 10 } })}`,
      );
  }
  const auth = { authorization: `Bearer ${await adminToken(v2)}` };
  const list = async () =>
    ((await getJson(`${v2}/api/core/v2/namespaces/default/events`, { headers: auth })).body as Record<string, any>[]).filter(
      (e) => e.entity.metadata.name === 'flat-out',
    );
  const events = await eventually(list, (all) => all.length === CHECKS && all.every((e) => e.check.output === `run ${EACH - 1}`), 30_000);
  assert.equal(events.length, CHECKS);
  for (const event of events) {
    assert.equal(event.check.output, `run ${EACH - 1}`, event.check.metadata.name);
    assert.deepEqual(
      event.check.history.map((h: { status: number }) => h.status),
      Array.from({ length: EACH }, (_, n) => n % 2),
      `${event.check.metadata.name}: every run, in order`,
    );
  }
  assert.equal(ws.readyState, WebSocket.OPEN, 'still connected');
});
