import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon } from '../helpers/daemon.js';
import { startInstance, eventually } from '../helpers/instance.js';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { isRunning } from '../helpers/process.js';

const client = { name: 'lifecycle-box', address: '127.0.0.1', subscriptions: [] };

/** Live processes whose environment carries `marker`: the daemon and everything it started, however reparented. */
function treeOf(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(marker) && isRunning(Number(entry))) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

test('SIGTERM with handlers hung and queued: exits 0 within a bound and leaves no process of its tree behind', async (t) => {
  const marker = `CHECKBRIDGE_TEST_TREE=${randomUUID()}`;
  const root = makeTree({});
  const pids = join(root, 'handler.pids');
  writeTree(root, {
    'conf.d/config.json': {
      client,
      checkbridge: { handler_concurrency: 4, handler_queue_limit: 5 },
      handlers: {
        hang: { type: 'pipe', command: `echo $$ >> ${pids}; sleep 1000` },
        hang_too: { type: 'pipe', command: 'sleep 1000' },
        both: { type: 'set', handlers: ['hang', 'hang_too'] },
      },
    },
  });
  const [name, value] = marker.split('=') as [string, string];
  const env = { [name]: value };
  const { daemon, socket } = await startInstance(root, [], env);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    for (const pid of treeOf(marker)) process.kill(pid, 'SIGKILL');
    removeTree(root);
  });
  await daemon.waitFor((l) => l.msg === 'checkbridge running');
  for (let i = 0; i < 20; i++) assert.equal(await tcpExchange(socket, JSON.stringify({ name: `flood_${i}`, output: 'bad', status: 2, handler: 'both' })), 'ok');
  await daemon.waitFor((l) => l.msg === 'handler queue is full: event not handled by this handler');
  const first = await eventually(
    async () => (existsSync(pids) ? readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number) : []),
    (p) => p.length > 0,
  );
  assert.ok(first.length > 0 && isRunning(first[0]!), 'the hung handler is running');
  assert.ok(treeOf(marker).length >= 3, 'the daemon, its helper and the handlers carry the marker');

  const started = Date.now();
  const code = await Promise.race([daemon.stop('SIGTERM'), sleep(15_000).then(() => 'still running after 15 s')]);
  assert.equal(code, 0, `exit: ${code}; last lines: ${JSON.stringify(daemon.logs.slice(-5))}`);
  assert.ok(Date.now() - started < 15_000);
  const survivors = await eventually(
    async () => treeOf(marker),
    (p) => p.length === 0,
    2000,
  );
  assert.deepEqual(survivors, [], 'processes of the daemon survived it');
  assert.equal(isRunning(first[0]!), false, 'the hung handler survived the daemon');
  assert.ok(daemon.logs.some((l) => l.msg === 'stopped'));
  assert.ok(!daemon.logs.some((l) => l.msg === 'still busy after stopping: exiting'), 'it had to be forced out');
  assert.ok(
    daemon.logs.some((l) => l.msg === 'stopping: queued handlers dropped'),
    'dropped queued work is logged',
  );
});

function occupy(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function refused(address: string): Promise<boolean> {
  const index = address.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = connect(Number(address.slice(index + 1)), address.slice(0, index));
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const listeners = [
  { flag: '--socket-port', name: 'client socket' },
  { flag: '--api-port', name: 'legacy API' },
  { flag: '--v2-port', name: 'v2 API' },
  { flag: '--agent-port', name: 'agent API' },
  { flag: '--agentd-port', name: 'agent WebSocket' },
];

for (const busy of listeners) {
  test(`a busy ${busy.name} port at start: exits 1 by itself, names the port, frees what it had opened`, async (t) => {
    const marker = `CHECKBRIDGE_TEST_TREE=${randomUUID()}`;
    const blocker = await occupy();
    const port = (blocker.address() as { port: number }).port;
    const root = makeTree({ 'conf.d/config.json': { client, checks: { tick: { command: 'true', standalone: true, interval: 1 } } } });
    const ports = listeners.flatMap((l) => [l.flag, l.flag === busy.flag ? String(port) : '0']);
    const [name, value] = marker.split('=') as [string, string];
    const daemon = startDaemon(['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), ...ports], {
      env: { CHECKBRIDGE_ADMIN_PASSWORD: 'lifecycle-admin', [name]: value },
    });
    t.after(async () => {
      await daemon.stop('SIGKILL');
      for (const pid of treeOf(marker)) process.kill(pid, 'SIGKILL');
      await new Promise((r) => blocker.close(r));
      removeTree(root);
    });
    const code = await Promise.race([new Promise((r) => daemon.proc.once('exit', r)), sleep(8000).then(() => 'still running after 8 s')]);
    assert.equal(code, 1, `exit: ${code}; last lines: ${JSON.stringify(daemon.logs.slice(-5))}`);
    assert.ok(!daemon.logs.some((l) => l.msg === 'still busy after stopping: exiting'), 'it had to be forced out: something it opened stayed open');
    const text = daemon.logs.map((l) => String(l.msg)).join('\n');
    assert.match(
      text,
      new RegExp(`${busy.name} 127\\.0\\.0\\.1:${port}: EADDRINUSE \\(the port is in use: choose another with ${busy.flag} \\(env CHECKBRIDGE_`),
    );
    const opened = daemon.logs.filter((l) => String(l.msg).endsWith('listening')).map((l) => String(l.tcp ?? l.address));
    for (const address of opened) assert.ok(await refused(address), `${address} is still open`);
    assert.deepEqual(
      await eventually(
        async () => treeOf(marker),
        (p) => p.length === 0,
        2000,
      ),
      [],
      'processes of the daemon survived it',
    );
  });
}

test('a busy client UDP port at start (TCP free): exits 1 by itself, names it, leaves the TCP port free', async (t) => {
  const blocker = createSocket('udp4');
  await new Promise<void>((resolve) => blocker.bind(0, '127.0.0.1', () => resolve()));
  const port = blocker.address().port;
  const root = makeTree({ 'conf.d/config.json': { client } });
  const daemon = startDaemon(
    [
      'run',
      join(root, 'conf.d'),
      '--state-dir',
      join(root, 'state'),
      '--socket-port',
      String(port),
      '--api-port',
      '0',
      '--agent-port',
      '0',
      '--v2-port',
      '0',
      '--agentd-port',
      '0',
    ],
    {
      env: { CHECKBRIDGE_ADMIN_PASSWORD: 'lifecycle-admin' },
    },
  );
  t.after(async () => {
    await daemon.stop('SIGKILL');
    blocker.close();
    removeTree(root);
  });
  const code = await Promise.race([new Promise((r) => daemon.proc.once('exit', r)), sleep(8000).then(() => 'still running after 8 s')]);
  assert.equal(code, 1, `exit: ${code}; last lines: ${JSON.stringify(daemon.logs.slice(-5))}`);
  assert.ok(!daemon.logs.some((l) => l.msg === 'still busy after stopping: exiting'), 'it had to be forced out: the TCP listener stayed open');
  assert.match(
    daemon.logs.map((l) => String(l.msg)).join('\n'),
    new RegExp(`client UDP socket 127\\.0\\.0\\.1:${port}: EADDRINUSE \\(the port is in use: choose another with --socket-port`),
  );
  assert.ok(await refused(`127.0.0.1:${port}`), 'the client socket TCP port is still open');
});
