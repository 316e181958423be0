// A protobuf frame within the 1 MiB frame limit decodes to no more than a JSON frame carries: frames packed with
// empty repeated entries (check hooks, network interfaces, metric points; 2-3 bytes on the wire, 18-100 bytes each as
// JSON) are refused by name before anything is decoded, nothing of them stored, and the session and its next frames
// carry on. The test speaks the agent's WebSocket itself and writes the frames byte by byte, with Sensu Go's field numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';

const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } } };
const AUTH = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');
const MAX_MESSAGE_BYTES = 1024 * 1024;

const varint = (value: number): Buffer => {
  const out: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 128)) out.push((value % 128) | 0x80);
  out.push(value);
  return Buffer.from(out);
};
/** A length-delimited field: a message, a string, or (without content) an empty message. */
const field = (number: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([varint(number * 8 + 2), varint(body.length), body]);
};
const text = (number: number, value: string) => field(number, Buffer.from(value));
const int = (number: number, value: number) => Buffer.concat([varint(number * 8), varint(value)]);
/** `count` empty entries of a repeated message field, as one buffer. */
function emptyEntries(number: number, count: number): Buffer {
  const one = field(number);
  const out = Buffer.alloc(one.length * count);
  for (let i = 0; i < count; i++) one.copy(out, i * one.length);
  return out;
}
const frame = (type: string, payload: Buffer) => Buffer.concat([Buffer.from(`${type}\n`), payload]);

// Sensu Go's numbers: Event entity 2, check 3, metrics 4; Entity system 3, metadata 14; System hostname 1, network 6;
// Network interfaces 1; Check interval 5, executed 23, output 26, status 28, hooks 34, metadata 38; Metrics points 2;
// ObjectMeta name 1, namespace 2.
const meta = (name: string, namespace?: string) => Buffer.concat([text(1, name), ...(namespace ? [text(2, namespace)] : [])]);
const entity = (name: string, ...system: Buffer[]) => field(2, field(14, meta(name)), field(3, text(1, name), ...system));
const check = (metadata: Buffer, ...rest: Buffer[]) => field(3, field(38, metadata), int(5, 60), int(23, Math.floor(Date.now() / 1000)), int(28, 1), ...rest);

function open(url: string, name: string): Promise<WebSocket> {
  const ws = new WebSocket(url, {
    headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', authorization: AUTH, accept: 'application/octet-stream' },
    perMessageDeflate: false,
  });
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('unexpected-response', () => reject(new Error(`${name} refused`))));
}

test("the issue's attack: two 1,048,505-byte protobuf events of 349,491 empty check hooks each are refused by name, nothing stored; the session's next event is", async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ws = await open(agentd, 'pb-hooks');
  t.after(() => ws.close());
  ws.send(frame('keepalive', entity('pb-hooks')));
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/pb-hooks`, 'GET', auth),
    (r) => r.status === 200,
  );

  const attack = frame('event', check(meta('bloat'), emptyEntries(34, 349_491)));
  assert.equal(attack.length, 1_048_505, 'the size the issue reports, under the 1 MiB frame limit');
  ws.send(attack);
  ws.send(attack);
  // A neighbour after them, with a check naming another namespace: it lands in the agent's, and says so.
  ws.send(frame('event', check(meta('after', 'elsewhere'), text(26, 'fine'))));
  const after = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/pb-hooks/after`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(after.body.check.output, 'fine');
  assert.equal(after.body.check.metadata.namespace, 'default', 'the namespace the event is stored in, not the one sent');

  const refusals = daemon.logs.filter(
    (l) =>
      l.agent === 'pb-hooks' &&
      String(l.msg).startsWith(
        `agent message refused: the protobuf Event is too large: it decodes to more than ${MAX_MESSAGE_BYTES} bytes of JSON, the most a JSON frame carries`,
      ),
  );
  assert.equal(refusals.length, 2, `both attack frames refused: ${JSON.stringify(daemon.logs.filter((l) => l.agent === 'pb-hooks').slice(-4))}`);
  assert.match(String(refusals[0]!.msg), /over it in Event\.check\.hooks at byte \d+$/, 'the field named');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/pb-hooks/bloat`, 'GET', auth)).status, 404, 'nothing of them stored');
  const events = await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', auth);
  assert.ok(JSON.stringify(events.body).length < 100_000, 'no event of megabytes stored');
  assert.equal(ws.readyState, WebSocket.OPEN, 'refused as a malformed frame is: the session kept');
});

test('other repeated fields too: empty network interfaces in a keepalive, empty metric points in an event, refused by name; an event of 900,000 bytes of output is stored', async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ws = await open(agentd, 'pb-lists');
  t.after(() => ws.close());
  const refusal = (path: string) =>
    daemon.waitFor(
      (l) =>
        l.agent === 'pb-lists' &&
        /^agent message refused: the protobuf Event is too large: /.test(String(l.msg)) &&
        String(l.msg).includes(` in ${path} at byte`),
    );

  // 520,000 empty interfaces: 2 bytes each on the wire, `{"addresses":null}` each as JSON.
  ws.send(frame('keepalive', entity('pb-lists', field(6, emptyEntries(1, 520_000)))));
  await refusal('Event.entity.system.network.interfaces');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/entities/pb-lists`, 'GET', auth)).status, 404, 'the keepalive not stored');
  ws.send(frame('keepalive', entity('pb-lists', field(6, field(1, text(1, 'eth0'))))));
  const stored = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/pb-lists`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.deepEqual(
    stored.body.system.network.interfaces.map((i: { name: string }) => i.name),
    ['eth0'],
  );

  // 520,000 empty metric points: `{"value":0,"timestamp":0,"tags":null}` each.
  ws.send(frame('event', Buffer.concat([check(meta('points')), field(4, emptyEntries(2, 520_000))])));
  await refusal('Event.metrics.points');
  const large = 'x'.repeat(900_000);
  ws.send(frame('event', check(meta('large'), text(26, large))));
  const event = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/pb-lists/large`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(event.body.check.output, large, 'an event within the budget is whole');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/pb-lists/points`, 'GET', auth)).status, 404);
  assert.equal(ws.readyState, WebSocket.OPEN);
});
