// SIGTERM while results pour in over the client socket: the daemon exits within its grace, and every result it answered
// `ok` is stored (seen after a restart on the same state) and was handled once before it exited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInstance } from '../helpers/instance.js';
import { tcpCollector } from '../helpers/net.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { STOP_GRACE_MS, SETTLE_MS } from '../../src/cli/lifecycle.js';
import { answers, assertAckedStoredOnce, flow } from './flow.js';

test('SIGTERM under load: exits within the grace, every acknowledged result stored and handled once', async (t) => {
  const collector = await tcpCollector();
  t.after(() => collector.close());
  const root = makeTree({
    'conf.d/config.json': {
      client: { name: 'term-host', address: '127.0.0.1', subscriptions: [] },
      handlers: { record: { type: 'tcp', socket: { host: '127.0.0.1', port: collector.port } } },
    },
  });
  t.after(() => removeTree(root));
  const first = await startInstance(root);
  t.after(() => first.daemon.stop('SIGKILL').then(() => undefined));
  // Eight senders at once, no pause: the group commit and the handler queue both hold work when the signal comes.
  const load = flow(Array(8).fill(first.socket), 'term', ['record'], { pauseMs: 0, timeoutMs: 20_000 });
  await sleep(2000);
  const signalledAt = Date.now();
  const code = await first.daemon.stop('SIGTERM');
  const exitMs = Date.now() - signalledAt;
  await load.stop();
  assert.equal(code, 0, `exit status after SIGTERM: ${code}`);
  assert.ok(exitMs < STOP_GRACE_MS + SETTLE_MS, `exited ${exitMs} ms after SIGTERM`);
  const lastOk = Math.max(...load.acked().map((s) => s.at));
  const handledAtExit = collector.received.length;

  const second = await startInstance(root);
  t.after(() => second.daemon.stop('SIGKILL').then(() => undefined));
  const figures = await assertAckedStoredOnce(second.api, ['term-host'], load.sent, collector);
  assert.equal(collector.received.length, handledAtExit, 'a result was handled after the restart (handled twice, or late)');
  t.diagnostic(
    `SIGTERM under 8 senders: exited ${exitMs} ms after it (status ${code}), last ok ${lastOk - signalledAt} ms after it; answers ${JSON.stringify(answers(load.sent))}; ` +
      `acknowledged ${figures.acked}, stored ${figures.stored}, handled once ${figures.handledOnce} (all before exit)`,
  );
});
