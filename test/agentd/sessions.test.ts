// Connected agents: what a session sends down its socket (JSON, or protobuf when asked), whether it may carry secrets,
// and the registry that finds sessions by agent and by subscription.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { AgentSession, SessionRegistry, type AgentIdentity } from '../../src/agentd/sessions.js';
import { decodeFrame, MESSAGE } from '../../src/agentd/frames.js';
import { decodeProtobuf } from '../../src/agentd/proto/codec.js';

const identityOf = (name: string, fields: Partial<AgentIdentity> = {}): AgentIdentity => ({
  name,
  namespace: 'default',
  user: 'agent',
  subscriptions: [],
  tls: false,
  mtls: false,
  ...fields,
});

/** A real WebSocket pair on loopback: the backend's end, and the frames the agent's end receives. */
async function socketPair(t: TestContext): Promise<{ server: WebSocket; client: WebSocket; received: Buffer[] }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const received: Buffer[] = [];
  client.on('message', (data) => received.push(data as Buffer));
  await once(client, 'open');
  const [server] = await accepted;
  t.after(async () => {
    client.terminate();
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  return { server, client, received };
}

async function frames(received: Buffer[], count: number): Promise<{ type: string; payload: Buffer }[]> {
  for (let i = 0; i < 1_000 && received.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(received.length, count);
  return received.map((data) => decodeFrame(data)!);
}

test('a JSON session sends each frame as its type and the JSON of its payload', async (t) => {
  const { server, received } = await socketPair(t);
  const session = new AgentSession(identityOf('web-01'), server);
  const request = { config: { name: 'disk', command: 'check-disk' }, issued: 5 };
  assert.equal(session.send(MESSAGE.checkRequest, request), true);
  assert.equal(session.send(MESSAGE.entityConfig, { metadata: { name: 'web-01' } }), true);
  const [first, second] = await frames(received, 2);
  assert.equal(first!.type, 'check_request');
  assert.deepEqual(JSON.parse(first!.payload.toString()), request);
  assert.equal(second!.type, 'entity_config');
  assert.deepEqual(JSON.parse(second!.payload.toString()), { metadata: { name: 'web-01' } });
});

test('a protobuf session sends entity_config and check_request frames as protobuf messages of those types', async (t) => {
  const { server, received } = await socketPair(t);
  const session = new AgentSession(identityOf('web-01'), server, true);
  const config = { metadata: { name: 'web-01', namespace: 'default' }, entity_class: 'agent', subscriptions: ['linux', 'entity:web-01'] };
  const request = { config: { metadata: { name: 'disk', namespace: 'default' }, command: 'check-disk', interval: 60 }, issued: 1_700_000_000 };
  session.send(MESSAGE.entityConfig, config);
  session.send(MESSAGE.checkRequest, request);
  const [first, second] = await frames(received, 2);
  assert.equal(first!.type, 'entity_config');
  assert.throws(() => JSON.parse(first!.payload.toString()), 'not JSON');
  const decodedConfig = decodeProtobuf('EntityConfig', first!.payload, { maxDepth: 32 }) as Record<string, unknown>;
  assert.equal(typeof decodedConfig, 'object', String(decodedConfig));
  assert.deepEqual(decodedConfig.subscriptions, ['linux', 'entity:web-01']);
  assert.equal((decodedConfig.metadata as { name: string }).name, 'web-01');
  const decodedRequest = decodeProtobuf('CheckRequest', second!.payload, { maxDepth: 32 }) as Record<string, any>;
  assert.equal(second!.type, 'check_request');
  assert.equal(decodedRequest.config.command, 'check-disk');
  assert.equal(decodedRequest.config.interval, 60);
  assert.equal(decodedRequest.issued, 1_700_000_000);
});

test('a protobuf session sends a frame of another type as JSON', async (t) => {
  const { server, received } = await socketPair(t);
  new AgentSession(identityOf('web-01'), server, true).send('other', { a: 1 });
  const [frame] = await frames(received, 1);
  assert.deepEqual(JSON.parse(frame!.payload.toString()), { a: 1 });
});

test('a session whose socket closed sends nothing and says so', async (t) => {
  const { server, client, received } = await socketPair(t);
  const session = new AgentSession(identityOf('web-01'), server);
  session.close(1000, 'bye');
  const [code, reason] = (await once(client, 'close')) as [number, Buffer];
  assert.deepEqual([code, reason.toString()], [1000, 'bye']);
  assert.equal(session.send(MESSAGE.checkRequest, { issued: 1 }), false);
  assert.deepEqual(received, []);
});

test("a session's subscriptions are the handshake's with the agent's own entity subscription", () => {
  const session = new AgentSession(identityOf('web-01', { subscriptions: ['linux', 'web'] }), {} as WebSocket);
  assert.deepEqual([...session.subscriptions].sort(), ['entity:web-01', 'linux', 'web']);
});

test('secrets go with check requests only to an agent on mutual TLS', () => {
  const delivery = (tls: boolean, mtls: boolean) => new AgentSession(identityOf('a', { tls, mtls }), {} as WebSocket).secretsDelivery();
  assert.deepEqual(delivery(true, true), { send: true });
  assert.equal(delivery(true, false).send, false);
  assert.match((delivery(true, false) as { reason: string }).reason, /no verified client certificate/);
  assert.equal(delivery(false, false).send, false);
  assert.match((delivery(false, false) as { reason: string }).reason, /not connected over TLS/);
});

// The registry reads only the sessions' identities and subscriptions: their sockets are never used here.
const sessionOf = (name: string, fields: Partial<AgentIdentity> = {}) => new AgentSession(identityOf(name, fields), {} as WebSocket);

test('the registry finds a session by namespace and name; the same name in two namespaces is two agents', () => {
  const registry = new SessionRegistry();
  const a = sessionOf('web-01');
  const b = sessionOf('web-01', { namespace: 'ops' });
  assert.equal(registry.add(a), null);
  assert.equal(registry.add(b), null);
  assert.equal(registry.get('default', 'web-01'), a);
  assert.equal(registry.get('ops', 'web-01'), b);
  assert.equal(registry.get('other', 'web-01'), null);
  assert.equal(registry.count(), 2);
  assert.deepEqual(registry.all(), [a, b]);
});

test('a namespace and name that run together differently are different agents', () => {
  const registry = new SessionRegistry();
  const pairs = [
    ['a', 'b.c'],
    ['a.b', 'c'],
    ['ab', 'c'],
    ['a', 'bc'],
  ];
  for (const [namespace, name] of pairs) assert.equal(registry.add(sessionOf(name!, { namespace: namespace! })), null, `${namespace} ${name}`);
  assert.equal(registry.count(), 4);
});

test('an agent that reconnects replaces its session; the old one, returned to be closed, cannot remove the new one', () => {
  const registry = new SessionRegistry();
  const old = sessionOf('web-01');
  const fresh = sessionOf('web-01');
  registry.add(old);
  assert.equal(registry.add(fresh), old);
  assert.equal(registry.count(), 1);
  registry.remove(old);
  assert.equal(registry.get('default', 'web-01'), fresh, 'the late close of the old session leaves the new one');
  registry.remove(fresh);
  assert.equal(registry.get('default', 'web-01'), null);
  assert.equal(registry.count(), 0);
});

test("sessions by subscription: those of the namespace holding it, the agent's own entity subscription included", () => {
  const registry = new SessionRegistry();
  const a = sessionOf('a', { subscriptions: ['linux'] });
  const b = sessionOf('b', { subscriptions: ['linux', 'web'] });
  const c = sessionOf('c', { subscriptions: ['linux'], namespace: 'ops' });
  for (const session of [a, b, c]) registry.add(session);
  assert.deepEqual(registry.withSubscription('default', 'linux'), [a, b]);
  assert.deepEqual(registry.withSubscription('default', 'web'), [b]);
  assert.deepEqual(registry.withSubscription('default', 'entity:a'), [a]);
  assert.deepEqual(registry.withSubscription('ops', 'linux'), [c]);
  assert.deepEqual(registry.withSubscription('default', 'windows'), []);
  // The subscriptions follow the session's set as it changes (a keepalive's stored entity).
  b.subscriptions = new Set(['windows']);
  assert.deepEqual(registry.withSubscription('default', 'windows'), [b]);
  assert.deepEqual(registry.withSubscription('default', 'web'), []);
});
