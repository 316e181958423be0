// `run --role client` is the client's list of services, started and stopped by the same lifecycle
// as `both`: its agent API honours client.http_socket.tls, and a stop signal during its start-up is honoured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startDaemon } from '../helpers/daemon.js';
import { makeTestCa } from '../helpers/tls.js';
import { httpsGet } from '../helpers/https-request.js';
import { freePort } from '../helpers/net.js';

/** A client role over a Redis broker that is not there: it starts all the same, retrying it. */
async function clientRole(t: { after(fn: () => Promise<void>): void }, client: Record<string, unknown>, extra: string[] = []) {
  const closed = await freePort();
  const root = makeTree({
    'conf.d/client.json': {
      client: { name: 'lifecycle-client', address: '127.0.0.1', subscriptions: [], ...client },
      redis: { host: '127.0.0.1', port: closed },
    },
  });
  const daemon = startDaemon([
    'run',
    join(root, 'conf.d'),
    '--role',
    'client',
    '--transport',
    'redis',
    '--state-dir',
    join(root, 'state'),
    '--socket-port',
    '0',
    '--agent-port',
    '0',
    ...extra,
  ]);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  return daemon;
}

test('run --role client: the agent API serves HTTPS from client.http_socket.tls, as in one process', async (t) => {
  const ca = makeTestCa();
  t.after(() => ca.remove());
  const server = ca.issue(['127.0.0.1', 'localhost']);
  const daemon = await clientRole(t, { http_socket: { tls: { cert_file: server.certFile, key_file: server.keyFile } } });
  const line = await daemon.waitFor((l) => l.msg === 'agent API listening', 15_000);
  assert.equal(line.tls, true);
  const url = `https://${String(line.address)}/info`;
  const answer = await httpsGet(url, { ca: ca.caPem });
  assert.equal(answer.status, 200, `${url}: ${answer.error}`);
  await assert.rejects(fetch(url.replace('https://', 'http://')), 'plain HTTP gets no answer');
});

test('run --role client: SIGTERM during start-up is remembered and honoured once start-up completes', async (t) => {
  // A secret given as a flag is warned about at once, before anything else starts: the signal arrives right then.
  const daemon = await clientRole(t, {}, ['--store-dsn', 'postgres://nobody@127.0.0.1/none']);
  await daemon.waitFor((l) => /--store-dsn/.test(String(l.msg)), 15_000);
  daemon.proc.kill('SIGTERM');
  const code = await Promise.race([
    new Promise((r) => daemon.proc.once('exit', (c, signal) => r(c ?? signal))),
    sleep(15_000).then(() => 'still running after 15 s'),
  ]);
  assert.equal(code, 0, `exit: ${code}; last lines: ${JSON.stringify(daemon.logs.slice(-5))}`);
  const messages = daemon.logs.map((l) => l.msg);
  assert.ok(messages.indexOf('checkbridge running') >= 0 && messages.indexOf('checkbridge running') < messages.indexOf('stopping'), 'stopped once started');
  assert.deepEqual(
    daemon.logs.filter((l) => l.msg === 'stopping').map((l) => l.signal),
    ['SIGTERM'],
  );
  assert.ok(messages.includes('stopped'));
});
