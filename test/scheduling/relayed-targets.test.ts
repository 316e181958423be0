// Requests to one agent on a shared store (server/relayed-targets.ts): whether the agent is here is its session's word,
// not its subscriptions', which an API edit may leave without `entity:NAME`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { WebSocket, WebSocketServer } from 'ws';
import { AgentSession, SessionRegistry } from '../../src/agentd/index.js';
import { decodeFrame } from '../../src/agentd/frames.js';
import { relayedTargets, type TargetKind, type V2CheckRequest } from '../../src/scheduling/index.js';
import type { ClusterChannel } from '../../src/cluster/index.js';
import { capturedLogger } from '../helpers/log-capture.js';

test(
  'a request to one agent connected here is delivered here even when its subscriptions lost entity:NAME, and is not relayed',
  { timeout: 30_000 },
  async (t) => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    const accepted = once(wss, 'connection');
    const agent = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
    // The server closes once its connections are gone.
    t.after(() => {
      for (const client of wss.clients) client.terminate();
      agent.terminate();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    });
    const [socket] = (await accepted) as [WebSocket];
    const sessions = new SessionRegistry();
    const session = new AgentSession({ name: 'web-1', namespace: 'default', user: 'agent', subscriptions: ['linux'], tls: false, mtls: false }, socket);
    sessions.add(session);
    // As a keepalive after an API edit of the entity's subscriptions: `entity:web-1` is gone.
    session.subscriptions = new Set(['linux']);
    const local: TargetKind = {
      kind: 'agent',
      members: (namespace, subscription) => sessions.withSubscription(namespace, subscription).map((s) => s.identity.name),
      broadcast: (namespace, subscription, request) => sessions.withSubscription(namespace, subscription).forEach((s) => s.send('check_request', request)),
      send: (namespace, name, request) => void sessions.get(namespace, name)?.send('check_request', request),
    };
    const published: unknown[] = [];
    const channel: ClusterChannel = { publish: (message) => void published.push(message), onMessage: () => {}, start: async () => {}, close: async () => {} };
    const relayed = relayedTargets(
      local,
      channel,
      () => [],
      (namespace, name) => sessions.get(namespace, name) !== null,
      capturedLogger().logger,
    );
    t.after(() => relayed.close());
    const received = once(agent, 'message');
    const request: V2CheckRequest = { config: { metadata: { name: 'disk', namespace: 'default' } }, hooks: [], assets: [], issued: 1 };
    relayed.send('default', 'web-1', request);
    assert.deepEqual(published, [], 'not relayed to the other servers');
    const [data] = (await received) as [Buffer];
    const frame = decodeFrame(data);
    assert.equal(frame?.type, 'check_request');
    assert.equal(JSON.parse(frame!.payload.toString()).config.metadata.name, 'disk');
  },
);

test('a relayed request is kept until its interval has passed, and the other server delivers each issue once and none stale', async (t) => {
  const sent: number[] = [];
  const local: TargetKind = { kind: 'agent', members: () => [], broadcast: () => {}, send: (_namespace, _name, request) => void sent.push(request.issued) };
  const published: [unknown, number | undefined][] = [];
  let hear: (message: unknown) => void = () => {};
  const channel: ClusterChannel = {
    publish: (message, keepUntil) => void published.push([message, keepUntil]),
    onMessage: (h) => void (hear = h),
    start: async () => {},
    close: async () => {},
  };
  const { logger, lines } = capturedLogger();
  const relayed = relayedTargets(
    local,
    channel,
    () => [],
    () => false,
    logger,
  );
  t.after(() => relayed.close());
  const now = Math.floor(Date.now() / 1000);
  const requestAt = (issued: number): V2CheckRequest => ({
    config: { metadata: { name: 'disk', namespace: 'default' }, interval: 10 },
    hooks: [],
    assets: [],
    issued,
  });
  relayed.send('default', 'far-1', requestAt(now));
  assert.equal(published[0]?.[1], (now + 11) * 1000, 'kept for its interval (issued is whole seconds: one more)');

  const relay = async (...issued: number[]) => {
    for (const at of issued) hear({ kind: 'agent', namespace: 'default', name: 'far-1', request: requestAt(at) });
    await new Promise((resolve) => setImmediate(resolve));
  };
  await relay(now - 4);
  await relay(now - 4); // heard again: read back after a reconnection
  await relay(now - 30); // older than its interval
  await relay(now - 2, now - 3, now - 2); // together (sent or read back at once): the newest only
  await relay(now - 5); // older than one delivered: the agent would not run it
  await relay(now);
  assert.deepEqual(sent, [now - 4, now - 2, now], 'each issue delivered once, in order');
  const dropped = lines.filter((l) => l.msg === 'check request from another server dropped as stale');
  assert.deepEqual(
    dropped.map((l) => [l.issued, l.reason, l.check, l.agent]),
    [
      [now - 30, "older than its check's interval", 'disk', 'far-1'],
      [now - 3, 'a newer request was delivered', 'disk', 'far-1'],
      [now - 5, 'a newer request was delivered', 'disk', 'far-1'],
    ],
  );
});

test("a server's own requests count: another server's older one heard afterwards is dropped as stale, logged", async (t) => {
  const sent: string[] = [];
  const local: TargetKind = {
    kind: 'agent',
    members: () => ['near-1'],
    broadcast: (_namespace, subscription, request) => void sent.push(`${subscription}@${request.issued}`),
    send: (_namespace, name, request) => void sent.push(`${name}@${request.issued}`),
  };
  let hear: (message: unknown) => void = () => {};
  const channel: ClusterChannel = { publish: () => {}, onMessage: (h) => void (hear = h), start: async () => {}, close: async () => {} };
  const { logger, lines } = capturedLogger();
  const relayed = relayedTargets(
    local,
    channel,
    () => [],
    (_namespace, name) => name === 'near-1',
    logger,
  );
  t.after(() => relayed.close());
  const now = Math.floor(Date.now() / 1000);
  const requestAt = (issued: number): V2CheckRequest => ({
    config: { metadata: { name: 'tick', namespace: 'default' }, interval: 10 },
    hooks: [],
    assets: [],
    issued,
  });
  // This server became the elected one and scheduled the check itself, for the subscription and for one agent by name.
  relayed.broadcast('default', 'near', requestAt(now));
  relayed.send('default', 'near-1', requestAt(now));
  // The previous elected server's requests, kept by the channel while it was cut, arrive afterwards.
  for (const message of [
    { kind: 'agent', namespace: 'default', subscription: 'near', request: requestAt(now - 1) },
    { kind: 'agent', namespace: 'default', name: 'near-1', request: requestAt(now - 1) },
    { kind: 'agent', namespace: 'default', subscription: 'near', request: requestAt(now) },
  ])
    hear(message);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(sent, [`near@${now}`, `near-1@${now}`], 'only its own requests reached the agents');
  assert.deepEqual(
    lines.filter((l) => l.msg === 'check request from another server dropped as stale').map((l) => [l.issued, l.reason]),
    [
      [now - 1, 'a newer request was delivered'],
      [now - 1, 'a newer request was delivered'],
    ],
    'the older ones said; the same issue heard again is no news',
  );
});
