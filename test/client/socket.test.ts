// The legacy client socket on TCP and UDP: results of the local client, answered `ok` once committed, `invalid`
// with the reason logged, `pong` to a ping; UDP never answers.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { listenClientSocket, localClientOf } from '../../src/client/socket.js';
import { settingsOf } from '../helpers/settings.js';
import { CheckbridgeError } from '../../src/errors.js';
import { systemClock } from '../../src/schedule/clock.js';
import { instanceFor, getJson } from '../helpers/instance.js';
import { tcpExchange, udpSend } from '../helpers/net.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { until } from '../helpers/wait.js';

const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [], signature: 'sig' } });

/** The socket in this process, on a free port, in front of a real intake on SQLite. */
async function clientSocket(t: TestContext, options: { maxMessageBytes?: number } = {}) {
  const { store, intake } = sqliteIntake(t);
  const { logger, messages } = capturedLogger();
  const listeners = await listenClientSocket({
    bind: '127.0.0.1',
    port: 0,
    intake,
    logger,
    client: () => localClientOf(settings),
    clock: systemClock,
    ...options,
  });
  t.after(() => listeners.close());
  return { store, messages, port: listeners.tcp.port, udpPort: listeners.udp.port };
}

test("a TCP result is the local client's and is answered ok once stored", async (t) => {
  const { store, port } = await clientSocket(t);
  assert.equal(await tcpExchange(port, JSON.stringify({ name: 'disk', output: 'disk 91%', status: 1 })), 'ok');
  const stored = store.getResult('door', 'disk');
  assert.deepEqual([stored?.check.output, stored?.check.status], ['disk 91%', 1]);
});

test('a ping is answered pong; an invalid result, an unparsable message and one over the size bound are answered invalid', async (t) => {
  const { port, messages } = await clientSocket(t, { maxMessageBytes: 200 });
  assert.equal(await tcpExchange(port, 'ping'), 'pong');
  assert.equal(await tcpExchange(port, JSON.stringify({ output: 'no name', status: 0 })), 'invalid');
  assert.ok(messages().includes('failed to process check result from socket'));
  // The sender finishes what does not parse: answered at once, not after the watchdog.
  assert.equal(await tcpExchange(port, '{"name": "disk", '), 'invalid');
  assert.equal(await tcpExchange(port, JSON.stringify({ name: 'big', output: 'x'.repeat(300), status: 0 })), 'invalid');
  assert.ok(messages().includes('message exceeds the configured max message size'));
});

test('a UDP result is stored; UDP garbage is logged', async (t) => {
  const { store, udpPort, messages } = await clientSocket(t);
  await udpSend(udpPort, JSON.stringify({ name: 'udp-check', output: 'over udp', status: 2 }));
  assert.ok(await until(() => store.getResult('door', 'udp-check') !== null, 5000));
  assert.equal(store.getResult('door', 'udp-check')?.check.output, 'over udp');
  await udpSend(udpPort, 'not json');
  assert.ok(await until(() => messages().includes('failed to process check result from socket'), 5000));
});

test('a port another process holds is a listen error naming the address', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  const port = (holder.address() as { port: number }).port;
  const { intake } = sqliteIntake(t);
  await assert.rejects(
    listenClientSocket({ bind: '127.0.0.1', port, intake, logger: capturedLogger().logger, client: () => ({ name: 'door' }), clock: systemClock }),
    (error: unknown) =>
      error instanceof CheckbridgeError && error.code === 'CB_LISTEN' && error.message.endsWith(`client socket 127.0.0.1:${port}: EADDRINUSE`),
  );
});

test('an array on the client socket: a refused result fails only itself, its neighbours are stored in order, the answer is invalid', async (t) => {
  const client = { name: 'array-host', address: '127.0.0.1', subscriptions: [] };
  // The local client is the one entity allowed: a result for a new proxy entity is refused.
  const { socket, api } = await instanceFor(t, { 'conf.d/client.json': { client, checkbridge: { entity_limit: 1 } } });
  const results = [
    { name: 'before', output: 'x', status: 1 },
    { name: 'refused', output: 'x', status: 1, source: 'new-proxy' },
    { name: 'after', output: 'y1', status: 2 },
    { name: 'after', output: 'y2', status: 0 },
    { name: 'after', output: 'y3', status: 2 },
  ];
  assert.equal(await tcpExchange(socket, JSON.stringify(results)), 'invalid');
  assert.equal((await getJson(`${api}/results/array-host/before`)).status, 200);
  const after = await getJson(`${api}/results/array-host/after`);
  assert.equal(after.status, 200, 'the result after the refused one is stored');
  // Submitted together, processed in order: the last is the result, the history has all three.
  assert.equal(after.body.check.output, 'y3');
  const history = await getJson(`${api}/clients/array-host/history`);
  assert.deepEqual((history.body as { check: string; history: number[] }[]).find((h) => h.check === 'after')?.history, [2, 0, 2]);
  assert.equal((await getJson(`${api}/results/new-proxy/refused`)).status, 404);
});

test('the local client of the settings: its name, and its signature when it has one', () => {
  assert.deepEqual(localClientOf(settings), { name: 'door', signature: 'sig' });
  const unsigned = localClientOf(settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] } }));
  assert.deepEqual([unsigned.name, unsigned.signature], ['door', undefined]);
});
