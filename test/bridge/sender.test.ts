// The bridge's sender drains the outbox to a v2 backend: one PUT per event with its sequence, in order per
// entity/check; a refused event goes to the dead letters, a failing backend is retried; nothing goes until started.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BridgeSender } from '../../src/bridge/sender.js';
import type { StateStore } from '../../src/store/index.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { until } from '../helpers/wait.js';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

/** A backend on loopback that answers each PUT with `answer(request)`'s status and body, and keeps what it got. */
async function backend(t: TestContext, answer: (request: IncomingMessage, body: Record<string, unknown>) => [number, string] = () => [201, '']) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body });
      const [status, reply] = answer(request, body);
      response.writeHead(status, { 'content-type': 'application/json' }).end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function senderFor(t: TestContext, store: StateStore, url: string) {
  const { logger, lines } = capturedLogger();
  const sender = new BridgeSender(store.outbox, { url, apiKey: 'the-key', namespace: 'default', timeout: 5, concurrency: 4 }, logger);
  t.after(() => sender.stop(1000));
  return { sender, lines };
}

const drained = (store: StateStore) => until(() => store.outbox.stats(Date.now()).depth === 0, 8000);

test('each event is PUT to its v2 path with the API key and its outbox sequence, in order per entity and check', async (t) => {
  const store = sqliteStore(t);
  const { url, received } = await backend(t);
  const first = store.outbox.add('ops', 'web 01', 'disk', '{"check":{"output":"one"}}', Date.now());
  const second = store.outbox.add('ops', 'web 01', 'disk', '{"check":{"output":"two"}}', Date.now());
  store.outbox.add('ops', 'db', 'cpu', '{"check":{"output":"cpu"}}', Date.now());
  const { sender, lines } = senderFor(t, store, url);
  sender.start();
  assert.ok(await drained(store), 'the outbox drained');
  const disk = received.filter((r) => r.url === '/api/core/v2/namespaces/ops/events/web%2001/disk');
  assert.deepEqual(
    disk.map((r) => [r.method, r.authorization, r.body.sequence, (r.body.check as { output: string }).output]),
    [
      ['PUT', 'Key the-key', first, 'one'],
      ['PUT', 'Key the-key', second, 'two'],
    ],
  );
  assert.equal(received.length, 3);
  assert.equal(sender.status, 'delivering');
  assert.ok(lines.some((l) => l.msg === 'bridge delivering'));
  assert.equal(store.outbox.stats(Date.now()).delivered, 3);
});

test('an event the backend refuses (a 4xx of its own) goes to the dead letters with the status and message; the others go on', async (t) => {
  const store = sqliteStore(t);
  const { url } = await backend(t, (request) => (request.url!.endsWith('/huge') ? [413, '{"message":"request body too large"}'] : [201, '']));
  store.outbox.add('default', 'web', 'huge', '{"check":{}}', Date.now());
  store.outbox.add('default', 'web', 'small', '{"check":{}}', Date.now());
  const { sender, lines } = senderFor(t, store, url);
  sender.start();
  assert.ok(await drained(store));
  assert.deepEqual(
    store.outbox.deadLetters().map((d) => [d.check, d.status, d.message]),
    [['huge', 413, 'request body too large']],
  );
  assert.deepEqual([store.outbox.stats(Date.now()).delivered, store.outbox.stats(Date.now()).dead_lettered], [1, 1]);
  assert.ok(lines.some((l) => l.msg === 'bridge: backend refused the event; moved to dead letters' && l.status === 413));
});

test('a backend answering 503 or 401 is retried, never dead-lettered, and its state is said once; the event goes once it recovers', async (t) => {
  const store = sqliteStore(t);
  let failing: [number, string] | null = [401, '{"message":"invalid credentials"}'];
  const { url, received } = await backend(t, () => failing ?? [201, '']);
  store.outbox.add('default', 'web', 'disk', '{"check":{}}', Date.now());
  const { sender, lines } = senderFor(t, store, url);
  sender.start();
  assert.ok(await until(() => sender.status === 'HTTP 401: invalid credentials', 15_000), sender.status);
  failing = [503, ''];
  assert.ok(await until(() => sender.status === 'HTTP 503', 15_000), sender.status);
  failing = null;
  assert.ok(await drained(store));
  assert.equal(sender.status, 'delivering');
  assert.equal(store.outbox.deadLetters().length, 0);
  assert.ok(received.length >= 3);
  const retrying = lines.filter((l) => l.msg === 'bridge cannot deliver: retrying with backoff').map((l) => l.reason);
  assert.deepEqual(retrying, ['HTTP 401: invalid credentials', 'HTTP 503']);
});

test('nothing is sent before start, after pause, or while leadership is unconfirmed', async (t) => {
  const store = sqliteStore(t);
  const { url, received } = await backend(t);
  store.outbox.add('default', 'web', 'disk', '{"check":{}}', Date.now());
  const { sender } = senderFor(t, store, url);
  let leading = false;
  sender.fence(() => leading);
  sender.kick();
  sender.start();
  // Several turns of the fence's retry go by with nothing sent.
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.deepEqual([received.length, store.outbox.stats(Date.now()).depth], [0, 1]);
  leading = true;
  assert.ok(await drained(store));
  sender.pause();
  store.outbox.add('default', 'web', 'disk', '{"check":{}}', Date.now());
  sender.kick();
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual([received.length, store.outbox.stats(Date.now()).depth], [1, 1]);
});
