// `run --role client` answers SIGUSR1 as the server role does, and never opens Node's inspector.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/net.js';

test('run --role client: SIGUSR1 cycles the log level and logs it; no debugger port opens', async (t) => {
  // A broker that is not there: the client role starts all the same, retrying it.
  const closed = await freePort();
  const root = makeTree({
    'conf.d/client.json': { client: { name: 'usr1-client', address: '127.0.0.1', subscriptions: [] }, redis: { host: '127.0.0.1', port: closed } },
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
    '--log-level',
    'info',
  ]);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  await daemon.waitFor((l) => l.msg === 'checkbridge running', 15_000);
  const seen: string[] = [];
  for (let i = 0; i < 2; i++) {
    const after = daemon.logs.length;
    daemon.proc.kill('SIGUSR1');
    const line = await daemon.waitFor((l) => l.msg === 'SIGUSR1: log level changed', 10_000, after);
    seen.push(`${line.previous_log_level}->${line.log_level}`);
  }
  assert.deepEqual(seen, ['info->debug', 'debug->trace']);
  assert.equal(daemon.proc.exitCode, null, 'still running');
  assert.deepEqual(
    daemon.logs.filter((l) => /Debugger listening|inspector/i.test(String(l.msg))),
    [],
    'the inspector never opened',
  );
});
