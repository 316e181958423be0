// The agent door's protobuf transport, spoken by the test itself: the handshake offers both formats and answers the
// agent's choice; protobuf keepalives and events are stored as JSON ones are; a malformed, wrongly typed, deep or
// oversized protobuf frame meets the rules JSON frames meet. Frames are built from Sensu Go's field numbers here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import protobuf from 'protobufjs';
import { WebSocket } from 'ws';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';

const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } };
const AUTH = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');

// A few of corev2's fields, numbered as in Sensu Go's event.proto, entity.proto, check.proto and meta.proto.
const SCHEMA = `syntax = "proto3";
message ObjectMeta { string name = 1; string namespace = 2; }
message System { string hostname = 1; string os = 2; }
message Entity { string entity_class = 1; System system = 3; repeated string subscriptions = 4; ObjectMeta metadata = 14; }
message Check { uint32 interval = 5; int64 ttl = 18; uint32 timeout = 19; int64 executed = 23; string output = 26; uint32 status = 28; ObjectMeta metadata = 38; }
message Event { int64 timestamp = 1; Entity entity = 2; Check check = 3; ObjectMeta metadata = 5; }
message EntityConfig { ObjectMeta metadata = 1; string entity_class = 2; repeated string subscriptions = 4; }`;
const Event = protobuf.parse(SCHEMA, { keepCase: true }).root.lookupType('Event');
const EntityConfig = protobuf.parse(SCHEMA, { keepCase: true }).root.lookupType('EntityConfig');
const frame = (type: string, payload: Uint8Array) => Buffer.concat([Buffer.from(`${type}\n`), payload]);
const encoded = (event: object) => Event.encode(Event.fromObject(event)).finish();
const keepalive = (name: string) =>
  frame('keepalive', encoded({ entity: { entity_class: 'agent', metadata: { name }, system: { hostname: name, os: 'linux' } }, check: { timeout: 120 } }));

interface Opened {
  ws: WebSocket;
  headers: IncomingMessage['headers'];
  rawAccept: string[];
  first: Promise<Buffer>;
}

function open(url: string, name: string, accept?: string): Promise<Opened> {
  const ws = new WebSocket(url, {
    headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', authorization: AUTH, ...(accept ? { accept } : {}) },
    perMessageDeflate: false,
  });
  ws.on('error', () => undefined);
  const first = new Promise<Buffer>((resolve) => ws.once('message', (data) => resolve(data as Buffer)));
  return new Promise((resolve, reject) => {
    ws.once('upgrade', (response) => {
      const rawAccept = response.rawHeaders.filter((_, i) => i % 2 === 1 && response.rawHeaders[i - 1]!.toLowerCase() === 'accept');
      ws.once('open', () => resolve({ ws, headers: response.headers, rawAccept, first }));
    });
    ws.once('unexpected-response', () => reject(new Error(`${name} refused`)));
  });
}

const closeCode = (ws: WebSocket, ms: number) =>
  Promise.race([new Promise<number>((resolve) => ws.once('close', (code) => resolve(code))), sleep(ms).then(() => 'open' as const)]);

test('an agent asking for protobuf gets it: both formats offered, entity_config sent as protobuf, its keepalive and event stored as JSON ones; JSON kept for an agent not asking', async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const agent = await open(agentd, 'pb-1', 'application/octet-stream');
  t.after(() => agent.ws.close());
  assert.deepEqual(agent.rawAccept, ['application/octet-stream', 'application/json'], 'one Accept line each, as Sensu Go answers');
  assert.equal(agent.headers['content-type'], 'application/octet-stream');
  const connected = await daemon.waitFor((l) => l.msg === 'agent connected' && l.agent === 'pb-1');
  assert.equal(connected.format, 'protobuf');
  const config = await agent.first;
  const newline = config.indexOf(0x0a);
  assert.equal(config.subarray(0, newline).toString(), 'entity_config');
  const decoded = EntityConfig.toObject(EntityConfig.decode(config.subarray(newline + 1)));
  assert.deepEqual(decoded.metadata, { name: 'not found', namespace: 'default' }, 'the initial entity_config, as protobuf');

  agent.ws.send(keepalive('pb-1'));
  const entity = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/pb-1`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(entity.body.system.hostname, 'pb-1');
  assert.deepEqual([...entity.body.subscriptions].sort(), ['entity:pb-1']);
  const now = Math.floor(Date.now() / 1000);
  const check = { metadata: { name: 'disk' }, status: 2, output: 'disk full', interval: 60, executed: now };
  agent.ws.send(frame('event', encoded({ timestamp: now, entity: { metadata: { name: 'pb-1' } }, check })));
  const event = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/pb-1/disk`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.deepEqual([event.body.check.status, event.body.check.output, event.body.check.executed], [2, 'disk full', now]);

  // An agent without protobuf's Accept (an older agent, our load generator) keeps JSON both ways, beside it.
  const json = await open(agentd, 'json-1');
  t.after(() => json.ws.close());
  assert.equal(json.headers['content-type'], 'application/json');
  const jsonConfig = await json.first;
  const payload = JSON.parse(jsonConfig.subarray(jsonConfig.indexOf(0x0a) + 1).toString()) as { metadata: { name: string } };
  assert.equal(payload.metadata.name, 'not found');
  const body = { entity: { metadata: { name: 'json-1' }, system: { hostname: 'json-1' } }, check: { timeout: 120, ttl: 0 } };
  json.ws.send(Buffer.from(`keepalive\n${JSON.stringify(body)}`));
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/json-1`, 'GET', auth),
    (r) => r.status === 200,
  );
});

test('malformed, wrongly typed, deep and JSON payloads on a protobuf session are refused by name, the session kept; oversized closes (1009)', async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const agent = await open(agentd, 'pb-bad', 'application/octet-stream');
  const refusal = async (pattern: RegExp) =>
    daemon.waitFor(
      (l) => l.agent === 'pb-bad' && pattern.test(String(l.msg)) && String(l.msg).startsWith('agent message refused: the payload is not a protobuf Event'),
    );
  agent.ws.send(frame('keepalive', Buffer.from([0x12, 0x40, 0x0a])));
  await refusal(/truncated field at byte 2: 64 bytes announced, 1 left/);
  agent.ws.send(frame('keepalive', Buffer.from([0x10, 0x05])));
  await refusal(/field 2 \(entity\) of Event at byte 0 has wire type varint, expected length-delimited/);
  // Unknown groups inside unknown groups: the nesting counts as a JSON document's does.
  agent.ws.send(frame('event', Buffer.concat([Buffer.alloc(3000, 0x7b), Buffer.alloc(3000, 0x7c)])));
  await refusal(/protobuf nested deeper than 100 levels/);
  agent.ws.send(Buffer.from(`keepalive\n${JSON.stringify({ entity: { metadata: { name: 'pb-bad' } } })}`));
  await refusal(/group 15 not ended|wire type/);
  assert.equal(agent.ws.readyState, WebSocket.OPEN, 'refused frames leave the session open');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/entities/pb-bad`, 'GET', auth)).status, 404, 'nothing stored');
  agent.ws.send(keepalive('pb-bad'));
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/pb-bad`, 'GET', auth),
    (r) => r.status === 200,
  );
  const closed = closeCode(agent.ws, 20_000);
  agent.ws.send(frame('event', Buffer.alloc(1024 * 1024, 0)));
  assert.equal(await closed, 1009, 'a frame over the limit closes the session as a JSON one does');

  const flood = await open(agentd, 'pb-flood', 'application/octet-stream');
  const flooded = closeCode(flood.ws, 30_000);
  for (let i = 0; i < 1000; i++) flood.ws.send(frame('event', Buffer.from([0x0f])));
  assert.equal(await flooded, 1008, 'only malformed protobuf frames: closed as malformed JSON ones are');
});
