// Delivering handler data by handler type: pipe commands, TCP and UDP sockets on this host, and the transport publish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliver, type TransportPublish } from '../../src/handling/deliver.js';
import { spawnCommand } from '../../src/execute/index.js';
import type { Handler } from '../../src/legacy/index.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const handler = (fields: Record<string, unknown>): Handler => ({ name: 'h', type: 'pipe', ...fields }) as Handler;

test('a pipe handler runs its command with the data on stdin and reports its output and status', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const file = join(dir, 'got');
  const ok = await deliver(handler({ command: `cat > ${file}; echo done` }), '{"id":1}', spawnCommand, undefined);
  assert.deepEqual(ok, { ok: true, output: 'done\n', status: 0 });
  assert.equal(readFileSync(file, 'utf8'), '{"id":1}');
  const failed = await deliver(handler({ command: 'echo nope; exit 2' }), 'x', spawnCommand, undefined);
  assert.deepEqual(failed, { ok: false, output: 'nope\n', status: 2 });
});

test('a handler without a type is a pipe; a pipe without a command is an error', async () => {
  const untyped = { name: 'h', command: 'cat' } as unknown as Handler;
  assert.deepEqual(await deliver(untyped, 'abc', spawnCommand, undefined), { ok: true, output: 'abc', status: 0 });
  assert.deepEqual(await deliver(handler({}), 'abc', spawnCommand, undefined), { ok: false, error: 'pipe handler has no command' });
});

test("a pipe handler's own timeout wins over the default one", async () => {
  const seen: (number | undefined)[] = [];
  const spawn: typeof spawnCommand = (command, options) => (seen.push(options?.timeout), spawnCommand(command, options));
  await deliver(handler({ command: 'true', timeout: 7 }), 'x', spawn, 30);
  await deliver(handler({ command: 'true' }), 'x', spawn, 30);
  assert.deepEqual(seen, [7, 30]);
});

test('a tcp handler writes the data to its socket and closes it', async (t) => {
  const server = createServer();
  const received = new Promise<string>((resolve) =>
    server.on('connection', (socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  const delivery = await deliver(handler({ type: 'tcp', socket: { host: '127.0.0.1', port } }), 'event data', spawnCommand, undefined);
  assert.deepEqual(delivery, { ok: true });
  assert.equal(await received, 'event data');
});

test('a tcp handler whose peer is not listening fails, naming the address', async () => {
  // Port 1 (tcpmux): privileged and unused, so no other test's listener can take it meanwhile.
  const port = 1;
  const delivery = await deliver(handler({ type: 'tcp', socket: { host: '127.0.0.1', port } }), 'x', spawnCommand, undefined);
  assert.equal(delivery.ok, false);
  assert.match(delivery.error ?? '', new RegExp(`ECONNREFUSED.*\\(127\\.0\\.0\\.1:${port}\\)`));
});

test('a udp handler sends the data as one datagram', async (t) => {
  const receiver = createSocket('udp4');
  receiver.bind(0, '127.0.0.1');
  await once(receiver, 'listening');
  t.after(() => receiver.close());
  const message = once(receiver, 'message');
  const delivery = await deliver(handler({ type: 'udp', socket: { host: '127.0.0.1', port: receiver.address().port } }), 'datagram', spawnCommand, undefined);
  assert.deepEqual(delivery, { ok: true });
  const [data] = (await message) as [Buffer];
  assert.equal(data.toString(), 'datagram');
});

test('socket and transport handlers skip empty data without sending', async () => {
  let published = 0;
  const publish: TransportPublish = () => (published++, true);
  // Port 9 on 127.0.0.1: nothing would take it, so a send attempt would fail rather than be skipped.
  for (const type of ['tcp', 'udp']) {
    assert.deepEqual(await deliver(handler({ type, socket: { host: '127.0.0.1', port: 9 } }), '', spawnCommand, undefined), {
      ok: true,
      skipped: 'empty data',
    });
  }
  assert.deepEqual(await deliver(handler({ type: 'transport', pipe: { type: 'direct', name: 'q' } }), '', spawnCommand, undefined, publish), {
    ok: true,
    skipped: 'empty data',
  });
  assert.equal(published, 0);
});

test('a transport handler publishes to its pipe with its options', async () => {
  const calls: unknown[][] = [];
  const publish: TransportPublish = (...args) => (calls.push(args), true);
  const delivery = await deliver(
    handler({ type: 'transport', pipe: { type: 'topic', name: 'events', options: { durable: true } } }),
    'data',
    spawnCommand,
    undefined,
    publish,
  );
  assert.deepEqual(delivery, { ok: true });
  await deliver(
    handler({ type: 'transport', pipe: { type: 'fanout', name: 'all', options: ['not', 'an', 'object'] } }),
    'data',
    spawnCommand,
    undefined,
    publish,
  );
  assert.deepEqual(calls, [
    ['topic', 'events', 'data', { durable: true }],
    ['fanout', 'all', 'data', undefined],
  ]);
});

test('a transport handler fails when its pipe is incomplete or the broker is not connected', async () => {
  const publish: TransportPublish = () => false;
  for (const pipe of [undefined, { type: 'queue', name: 'q' }, { type: 'direct' }]) {
    const delivery = await deliver(handler({ type: 'transport', pipe }), 'data', spawnCommand, undefined, () => true);
    assert.equal(delivery.ok, false, JSON.stringify(pipe));
    assert.match(delivery.error ?? '', /needs pipe.type/);
  }
  const delivery = await deliver(handler({ type: 'transport', pipe: { type: 'direct', name: 'q' } }), 'data', spawnCommand, undefined, publish);
  assert.deepEqual(delivery, { ok: false, error: 'transport is not connected: event not published' });
});

test('without a broker a transport handler is refused; an unknown type is an error', async () => {
  const transport = await deliver(handler({ type: 'transport', pipe: { type: 'direct', name: 'q' } }), 'data', spawnCommand, undefined);
  assert.equal(transport.ok, false);
  assert.match(transport.error ?? '', /no message broker/);
  assert.deepEqual(await deliver(handler({ type: 'carrier-pigeon' }), 'data', spawnCommand, undefined), {
    ok: false,
    error: 'unknown handler type carrier-pigeon',
  });
});
