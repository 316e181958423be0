// Connected agents as subscribers of v2 check requests: who the members of a subscription are, each getting Sensu
// Go's check_request once per issue, and the check's secrets only over mutual TLS.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { agentTargets, connectedAgents } from '../../src/scheduling/agent-targets.js';
import type { V2CheckRequest } from '../../src/scheduling/check-request-targets.js';
import { AgentSession, SessionRegistry } from '../../src/agentd/sessions.js';
import { decodeFrame } from '../../src/agentd/frames.js';
import { RemoteSecrets } from '../../src/secrets/index.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';

/** Agents connected over real WebSockets on loopback: their sessions, and the check requests each received. */
async function agents(t: TestContext, specs: { name: string; subscriptions: string[]; mtls?: boolean }[]) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const sessions = new SessionRegistry();
  const received = new Map<string, Record<string, any>[]>();
  const clients: WebSocket[] = [];
  for (const { name, subscriptions, mtls = false } of specs) {
    const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    clients.push(client);
    received.set(name, []);
    client.on('message', (data: Buffer) => {
      const frame = decodeFrame(data)!;
      if (frame.type === 'check_request') received.get(name)!.push(JSON.parse(frame.payload.toString()));
    });
    await once(client, 'open');
    const [server] = await accepted;
    sessions.add(new AgentSession({ name, namespace: 'default', user: 'agent', subscriptions, tls: mtls, mtls }, server));
  }
  t.after(async () => {
    for (const client of clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  return { sessions, received };
}

const request = (issued: number, config: Record<string, unknown> = {}): V2CheckRequest => ({
  config: { metadata: { name: 'disk', namespace: 'default' }, command: 'check-disk', ...config },
  hooks: [],
  assets: [],
  issued,
});

function secrets() {
  const { logger, messages } = capturedLogger();
  return { messages, secrets: new RemoteSecrets(async () => ({ ok: true as const, env: { TOKEN: 's3cret' }, values: ['s3cret'] }), logger) };
}

test('the members of a subscription are its agents in that namespace; a broadcast reaches each once per issue', async (t) => {
  const { sessions, received } = await agents(t, [
    { name: 'web-1', subscriptions: ['linux', 'web'] },
    { name: 'web-2', subscriptions: ['web'] },
    { name: 'db-1', subscriptions: ['linux'] },
  ]);
  const targets = agentTargets(sessions, secrets().secrets);
  assert.equal(targets.kind, 'agent');
  assert.deepEqual([...targets.members('default', 'web')].sort(), ['web-1', 'web-2']);
  assert.deepEqual(targets.members('other', 'web'), []);
  // web-1 holds both subscriptions: the same issue reaches it once.
  targets.broadcast('default', 'web', request(100));
  targets.broadcast('default', 'linux', request(100));
  targets.broadcast('default', 'linux', request(110));
  assert.ok(await until(() => received.get('db-1')!.length === 2 && received.get('web-1')!.length === 2, 5000));
  assert.deepEqual(
    [...received].map(([name, requests]) => [name, requests.map((r) => r.issued)]),
    [
      ['web-1', [100, 110]],
      ['web-2', [100]],
      ['db-1', [100, 110]],
    ],
  );
  assert.equal(received.get('web-2')![0]!.config.command, 'check-disk');
});

test('a request sent to one named agent reaches it (once per issue); an agent not connected is skipped', async (t) => {
  const { sessions, received } = await agents(t, [{ name: 'web-1', subscriptions: [] }]);
  const targets = agentTargets(sessions, secrets().secrets);
  targets.send('default', 'web-1', request(5));
  targets.send('default', 'web-1', request(5));
  targets.send('default', 'gone', request(5));
  targets.send('default', 'web-1', request(6));
  assert.ok(await until(() => received.get('web-1')!.length === 2, 5000));
  assert.deepEqual(
    received.get('web-1')!.map((r) => r.issued),
    [5, 6],
  );
});

test("the check's secrets go only to agents over mutual TLS; the others run it without them, and that is said", async (t) => {
  const { sessions, received } = await agents(t, [
    { name: 'trusted', subscriptions: ['linux'], mtls: true },
    { name: 'plain', subscriptions: ['linux'] },
  ]);
  const { secrets: delivery, messages } = secrets();
  const local = connectedAgents(sessions, delivery, null, capturedLogger().logger);
  t.after(() => local.close());
  local.broadcast('default', 'linux', request(7, { secrets: [{ name: 'TOKEN', secret: 'token' }] }));
  assert.ok(await until(() => received.get('trusted')!.length === 1 && received.get('plain')!.length === 1, 5000));
  assert.deepEqual(received.get('trusted')![0]!.secrets, ['TOKEN=s3cret']);
  assert.equal(received.get('plain')![0]!.secrets, undefined);
  assert.ok(messages().includes('secrets withheld: the agent runs the check without them'));
});
