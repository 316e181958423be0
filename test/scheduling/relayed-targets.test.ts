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
