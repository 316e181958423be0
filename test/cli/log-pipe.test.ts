// A supervisor that stops reading the daemon's log pipe must not stop the daemon (logging off the hot path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { BIN } from '../helpers/paths.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { freePort, tcpExchange } from '../helpers/net.js';

test('run: with nobody reading its stderr pipe, the daemon keeps answering after logging far more than the pipe holds', { timeout: 60_000 }, async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'pipe-host', address: '127.0.0.1', subscriptions: [] } } });
  const [socket, api, v2, agent] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // stderr is a pipe this test never reads: once its 64 KB are full, only a daemon that does not wait on it goes on.
  const proc = spawn(
    process.execPath,
    [
      BIN,
      'run',
      join(root, 'conf.d'),
      '--state-dir',
      join(root, 'state'),
      '--socket-port',
      String(socket),
      '--api-port',
      String(api),
      '--v2-port',
      String(v2),
      '--agentd-port',
      '0',
      '--agent-port',
      String(agent),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  t.after(async () => {
    proc.kill('SIGKILL');
    await once(proc, 'exit').catch(() => undefined);
    removeTree(root);
  });
  proc.stderr!.pause();
  const deadline = Date.now() + 30_000;
  while ((await fetch(`http://127.0.0.1:${api}/info`).catch(() => null))?.status !== 200) {
    assert.ok(Date.now() < deadline, 'the legacy API came up');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Each failing result names the `default` handler, which does not exist: one log line each, about 200 bytes.
  const batch = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ name: `check_${i}`, output: 'failing', status: 2 })));
  for (let i = 0; i < 4; i++) assert.equal(await tcpExchange(socket, batch), 'ok');
  const info = await fetch(`http://127.0.0.1:${api}/info`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(info.status, 200);
});
