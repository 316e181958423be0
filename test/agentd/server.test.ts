// The agent WebSocket server: plain HTTP is told to upgrade, a refused handshake is an HTTP answer the agent logs,
// an admitted agent gets its entity_config first. An agent that sends faster than the daemon stores: its socket
// stops being read past 256 frames not yet stored and resumes at half; nothing it sent is lost or reordered.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { AgentdServer } from '../../src/agentd/server.js';
import { SessionRegistry } from '../../src/agentd/sessions.js';
import { decodeFrame } from '../../src/agentd/frames.js';
import { ensureAgentUser } from '../../src/auth/index.js';
import { ManualClock, systemClock, type ReadClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { eventually, getJson } from '../helpers/instance.js';
import { adminToken } from '../api/v2/v2-helpers.js';
import { agentInstanceFor, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const PASSWORD = 'agent-secret';

/** The server in this process on a real store and intake, listening on a free port. */
async function agentd(t: TestContext, rate = 0, clock: ReadClock = systemClock) {
  const { store, intake } = sqliteIntake(t);
  const resources = store.resources;
  resources.putResource('Namespace', '', 'default', { name: 'default' });
  await ensureAgentUser(resources, { CHECKBRIDGE_AGENT_PASSWORD: PASSWORD }, () => undefined);
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } });
  const { logger, lines } = capturedLogger();
  const server = new AgentdServer({
    resources,
    store,
    intake,
    sessions: new SessionRegistry(),
    https: null,
    rate: () => rate,
    backendId: 'backend-1',
    settings: () => settings,
    logger,
    clock,
    maxMessageBytes: 1024 * 1024,
    entityRefusal: () => null,
    onRegistration: () => undefined,
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => server.close());
  const port = (server.server.address() as AddressInfo).port;
  return { server, store, lines, http: `http://127.0.0.1:${port}/`, ws: `ws://127.0.0.1:${port}/` };
}

const credentials = (password: string) => ({
  'Sensu-AgentName': 'web-01',
  'Sensu-Namespace': 'default',
  authorization: 'Basic ' + Buffer.from(`agent:${password}`).toString('base64'),
});

/** The HTTP answer to a refused upgrade: its status, Retry-After and body. */
function refusal(url: string, headers: Record<string, string>): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }));
    });
    ws.on('open', () => reject(new Error('admitted')));
    ws.on('error', reject);
  });
}

test('plain HTTP is answered 426 with how to connect', async (t) => {
  const { http } = await agentd(t);
  const response = await fetch(http);
  assert.equal(response.status, 426);
  assert.equal(await response.text(), 'the Sensu Go agent WebSocket: connect with a WebSocket upgrade\n');
});

test('a refused handshake is an HTTP answer with its reason, and is logged', async (t) => {
  const { ws, lines } = await agentd(t);
  assert.deepEqual(await refusal(ws, credentials('wrong')), { status: 401, retryAfter: undefined, body: 'bad credentials\n' });
  const logged = lines.find((l) => l.msg === 'agent refused: bad credentials');
  assert.deepEqual([logged?.agent, logged?.status], ['web-01', 401]);
});

test('an admitted agent hears Backend-ID and gets its entity_config first; it is a session until it disconnects', async (t) => {
  const { server, ws, store } = await agentd(t);
  const socket = new WebSocket(ws, { headers: credentials(PASSWORD) });
  t.after(() => socket.terminate());
  // Listened for before the upgrade: the first frame may come with the handshake's answer.
  const first = once(socket, 'message') as Promise<[Buffer]>;
  const [upgrade] = (await once(socket, 'upgrade')) as [{ headers: Record<string, string> }];
  assert.equal(upgrade.headers['backend-id'], 'backend-1');
  const entityConfig = decodeFrame((await first)[0])!;
  assert.equal(entityConfig.type, 'entity_config');
  assert.equal(server.sessions.get('default', 'web-01')?.identity.name, 'web-01');
  socket.send(`keepalive\n${JSON.stringify({ entity: { metadata: { name: 'web-01' }, entity_class: 'agent' }, check: { metadata: { name: 'keepalive' } } })}`);
  for (let i = 0; i < 1000 && store.getClient('web-01') === null; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(store.getClient('web-01')?.entity_class, 'agent');
  socket.close();
  for (let i = 0; i < 1000 && server.sessions.get('default', 'web-01'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(server.sessions.get('default', 'web-01'), null);
});

test('past the bound of new connections a second an agent is told 429', async (t) => {
  // A clock that does not move: both connections fall in the same second.
  const { ws } = await agentd(t, 1, new ManualClock(1_000_000));
  const first = new WebSocket(ws, { headers: credentials(PASSWORD) });
  t.after(() => first.terminate());
  await once(first, 'open');
  assert.deepEqual(await refusal(ws, credentials(PASSWORD)), {
    status: 429,
    retryAfter: undefined,
    body: 'too many new agent connections a second: retry later\n',
  });
});

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
