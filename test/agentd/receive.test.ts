// What arrives from a connected agent: a keepalive registers its entity and client record, an event enters the
// intake on that entity, and frames that are not frames are refused (a connection of nothing else is closed).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { AgentMessages } from '../../src/agentd/receive.js';
import { AgentSession } from '../../src/agentd/sessions.js';
import { GARBAGE_LIMIT } from '../../src/agentd/refusals.js';
import { systemClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

/** The backend's end of a real WebSocket on loopback, and the close code the agent's end hears. */
async function backendSocket(t: TestContext): Promise<{ server: WebSocket; closed: Promise<number> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const closed = new Promise<number>((resolve) => client.once('close', (code: number) => resolve(code)));
  await once(client, 'open');
  const [server] = await accepted;
  t.after(async () => {
    client.terminate();
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  return { server, closed };
}

async function setUp(t: TestContext, name = 'web-01') {
  const { store, intake } = sqliteIntake(t);
  store.resources.putResource('Namespace', '', 'default', { name: 'default' });
  const settings = settingsOf({ client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const { logger, lines, messages } = capturedLogger();
  const messagesIn = new AgentMessages({
    store,
    settings: () => settings,
    intake,
    onRegistration: () => undefined,
    logger,
    clock: systemClock,
    maxMessageBytes: 1024 * 1024,
  });
  const { server, closed } = await backendSocket(t);
  const session = new AgentSession({ name, namespace: 'default', user: 'agent', subscriptions: ['linux'], tls: false, mtls: false }, server);
  return { store, messagesIn, session, lines, messages, closed };
}

const frame = (type: string, body: unknown) => Buffer.from(`${type}\n${JSON.stringify(body)}`);

test("a keepalive registers the agent's entity and client record; its next event is stored on that entity with its id as a UUID", async (t) => {
  const { store, messagesIn, session } = await setUp(t);
  await messagesIn.receive(
    session,
    frame('keepalive', {
      entity: { metadata: { name: 'web-01', labels: { team: 'blue' } }, entity_class: 'agent', subscriptions: ['linux'] },
      check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120 },
    }),
  );
  assert.equal(store.resources.getEntity('default', 'web-01')?.metadata?.labels?.team, 'blue');
  assert.equal(store.getClient('web-01')?.entity_class, 'agent');
  assert.deepEqual([...session.subscriptions].sort(), ['entity:web-01', 'linux']);
  // Sensu Go's JSON carries the id as base64 of its 16 bytes.
  const id = Buffer.from('00112233445566778899aabbccddeeff', 'hex').toString('base64');
  await messagesIn.receive(
    session,
    frame('event', {
      id,
      entity: { metadata: { name: 'web-01' } },
      check: { metadata: { name: 'disk', namespace: 'other' }, status: 1, output: 'disk 91%', interval: 10 },
    }),
  );
  const stored = store.resources.getEvent('default', 'web-01', 'disk') as Record<string, any> | null;
  assert.equal(stored?.id, '00112233-4455-6677-8899-aabbccddeeff');
  assert.equal(stored?.check.metadata.namespace, 'default', "stored in the agent's namespace");
  assert.equal(stored?.check.output, 'disk 91%');
  assert.deepEqual(stored?.entity.metadata.labels, { team: 'blue' }, "on the keepalive's entity");
});

test('frames without a type, payloads that are not JSON objects and unknown types are refused and logged', async (t) => {
  const { store, messagesIn, session, lines } = await setUp(t);
  await messagesIn.receive(session, Buffer.from('no newline here'));
  await messagesIn.receive(session, Buffer.from('event\n[1, 2]'));
  await messagesIn.receive(session, frame('gossip', {}));
  const refusals = lines.filter((l) => String(l.msg).startsWith('agent message refused'));
  assert.deepEqual(
    refusals.map((l) => [l.msg, l.type]),
    [
      ['agent message refused: no message type (a frame is `type\\npayload`)', undefined],
      ['agent message refused: the payload is not a JSON object', 'event'],
      ['agent message refused: unknown message type', 'gossip'],
    ],
  );
  assert.deepEqual(store.resources.listEvents('default'), []);
});

test('an event whose check fails validation is refused and logged with its check; nothing is stored', async (t) => {
  const { store, messagesIn, session, messages } = await setUp(t);
  await messagesIn.receive(session, frame('event', { entity: { metadata: { name: 'web-01' } }, check: { metadata: { name: 'bad name!' }, status: 0 } }));
  assert.ok(
    messages().some((m) => m.startsWith('agent event refused: ')),
    messages().join('\n'),
  );
  assert.equal(store.resources.getEvent('default', 'web-01', 'bad name!'), null);
});

test("an unregistered agent's event whose entity is a list is refused, as Sensu Go cannot decode it; metadata that is no object brings no fields", async (t) => {
  const { store, messagesIn, session, messages } = await setUp(t);
  const check = { metadata: { name: 'disk' }, status: 0, output: 'ok', interval: 10 };
  await messagesIn.receive(session, frame('event', { entity: ['web-01'], check }));
  assert.equal(store.resources.getEvent('default', 'web-01', 'disk'), null);
  assert.ok(
    messages().some((m) => m.startsWith('agent event refused: ') && m.includes('entity')),
    messages().join('\n'),
  );
  await messagesIn.receive(session, frame('event', { entity: { metadata: 'ab' }, check }));
  const stored = store.resources.getEvent('default', 'web-01', 'disk') as Record<string, any> | null;
  assert.equal(stored?.entity.metadata.name, 'web-01');
  assert.deepEqual(
    Object.keys(stored?.entity.metadata ?? {}).filter((key) => /^\d+$/.test(key)),
    [],
    'no characters of the string as fields',
  );
});

test('a connection that sends only malformed frames is closed with 1008', async (t) => {
  const { messagesIn, session, closed, messages } = await setUp(t);
  for (let i = 0; i < GARBAGE_LIMIT; i++) await messagesIn.receive(session, Buffer.from('garbage'));
  assert.equal(session.discarding, true);
  assert.equal(await closed, 1008);
  assert.ok(messages().includes('agent connection closed (1008): it sends malformed frames only'));
});
