import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon } from '../helpers/daemon.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { isRunning } from '../helpers/process.js';
import { runCli } from '../helpers/cli.js';

const client = { name: 'e2e-box', address: '127.0.0.1', subscriptions: ['web'] };
const executed = (check: string) => (l: Record<string, unknown>) => l.msg === 'check executed' && l.check === check;

test('run executes standalone and subscription checks and applies conf.d edits live', async (t) => {
  const root = makeTree({
    'conf.d/client.json': { client },
    'conf.d/checks.json': {
      checks: {
        standalone_one: { command: 'echo alone :::name:::', standalone: true, interval: 1 },
        sub_one: { command: 'echo sub; exit 1', subscribers: ['web'], interval: 1 },
      },
    },
  });
  const daemon = startDaemon([
    'run',
    join(root, 'conf.d'),
    '--state-dir',
    join(root, 'state'),
    '--log-level',
    'info',
    '--socket-port',
    '0',
    '--api-port',
    '0',
    '--agent-port',
    '0',
    '--v2-port',
    '0',
    '--agentd-port',
    '0',
  ]);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  await daemon.waitFor((l) => l.msg === 'checkbridge running');
  const one = await daemon.waitFor(executed('standalone_one'));
  assert.equal(one.status, 0);
  const sub = await daemon.waitFor(executed('sub_one'));
  assert.equal(sub.status, 1);

  const mark = daemon.logs.length;
  writeFileSync(
    join(root, 'conf.d', 'checks.json'),
    JSON.stringify({
      checks: { sub_one: { command: 'echo changed; exit 2', subscribers: ['web'], interval: 1 }, added: { command: 'true', standalone: true, interval: 1 } },
    }),
  );
  await daemon.waitFor((l) => l.msg === 'settings changed', 10_000, mark);
  await daemon.waitFor(executed('added'), 10_000, mark);
  const changed = await daemon.waitFor((l) => executed('sub_one')(l) && l.status === 2, 10_000, mark);
  assert.equal(changed.status, 2);
  const afterChange = daemon.logs.length;
  await sleep(2500);
  assert.equal(daemon.logs.slice(afterChange).filter(executed('standalone_one')).length, 0, 'a removed check kept running');

  // An invalid edit keeps the last good settings running.
  const beforeBad = daemon.logs.length;
  writeFileSync(join(root, 'conf.d', 'checks.json'), '{"checks": {"added": {"command": "true", "interval": "x"');
  await daemon.waitFor((l) => String(l.msg).includes('keeping the last good settings'), 10_000, beforeBad);
  await daemon.waitFor(executed('added'), 10_000, daemon.logs.length);

  // Mended back to what runs: nothing changes, and the log says the configuration is valid again.
  const beforeMend = daemon.logs.length;
  writeFileSync(
    join(root, 'conf.d', 'checks.json'),
    JSON.stringify({
      checks: { sub_one: { command: 'echo changed; exit 2', subscribers: ['web'], interval: 1 }, added: { command: 'true', standalone: true, interval: 1 } },
    }),
  );
  const mended = await daemon.waitFor((l) => l.msg === 'configuration is valid again', 10_000, beforeMend);
  assert.equal(mended.level, 30);

  assert.equal(await daemon.stop('SIGTERM'), 0);
});

test('SIGTERM waits for in-flight checks and leaves no process of theirs behind', async (t) => {
  const root = makeTree({
    'conf.d/a.json': { client, checks: { hang: { command: `sh -c 'sleep 60 & echo $! > ${'PIDFILE'}; wait'`, standalone: true, interval: 1, timeout: 30 } } },
  });
  const pidFile = join(root, 'hang.pid');
  writeFileSync(join(root, 'conf.d', 'a.json'), readFileSync(join(root, 'conf.d', 'a.json'), 'utf8').replace('PIDFILE', pidFile));
  const daemon = startDaemon([
    'run',
    join(root, 'conf.d'),
    '--state-dir',
    join(root, 'state'),
    '--socket-port',
    '0',
    '--api-port',
    '0',
    '--agent-port',
    '0',
    '--v2-port',
    '0',
    '--agentd-port',
    '0',
  ]);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  await daemon.waitFor((l) => l.msg === 'checkbridge running');
  // The shell creates the file before `echo` writes the pid into it: wait for the number itself.
  const pidIn = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0);
  for (let i = 0; i < 100 && !pidIn(); i++) await sleep(50);
  const grandchild = pidIn();
  assert.ok(isRunning(grandchild));
  assert.equal(await daemon.stop('SIGTERM'), 0);
  await sleep(100);
  assert.equal(isRunning(grandchild), false, 'an in-flight check process survived the daemon');
});

test('SIGHUP reloads the configuration through the watcher path', async (t) => {
  const root = makeTree({ 'conf.d/a.json': { client } });
  const daemon = startDaemon([
    'run',
    join(root, 'conf.d'),
    '--state-dir',
    join(root, 'state'),
    '--socket-port',
    '0',
    '--api-port',
    '0',
    '--agent-port',
    '0',
    '--v2-port',
    '0',
    '--agentd-port',
    '0',
  ]);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  await daemon.waitFor((l) => l.msg === 'checkbridge running');
  daemon.proc.kill('SIGHUP');
  await daemon.waitFor((l) => l.msg === 'SIGHUP: reloading configuration');
  assert.equal(await daemon.stop('SIGINT'), 0);
});

test('run refuses to start on invalid configuration (78) and names the problem', () => {
  const root = makeTree({ 'conf.d/a.json': { checks: { bad: { command: 'x', interval: -1, subscribers: [] } } } });
  try {
    const result = runCli(['run', join(root, 'conf.d'), '--state-dir', join(root, 'state')]);
    assert.equal(result.code, 78);
    assert.match(result.stderr, /a\.json:\d+:\d+ \/checks\/bad\/interval: check interval must be an integer greater than 0/);
  } finally {
    removeTree(root);
  }
});

test('an unknown log level is the legacy error, exit 1', () => {
  const result = runCli(['run', '--log-level', 'loud']);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, 'checkbridge: Unknown log level: loud\n');
});
