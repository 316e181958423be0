// The spawner helper, which every check and handler is a child of, never opens Node's
// inspector on SIGUSR1 either (a command may signal its parent; the inspector's port takes any local user's code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, postJson, eventually } from '../helpers/instance.js';

/** The daemon's spawner helper: its child running spawner-host.js. */
function helperOf(daemonPid: number): number | null {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === daemonPid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('spawner-host.js')) return Number(name);
    } catch {
      /* gone meanwhile */
    }
  }
  return null;
}

test('a command that sends SIGUSR1 to its parent, the spawner helper, opens no debugger port; the helper keeps running commands', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'usr1-helper', address: '127.0.0.1', subscriptions: ['t'] } } });
  const out = join(root, 'out');
  const checks = {
    signal: { command: `kill -USR1 $PPID; echo signalled > ${out}-1`, subscribers: ['t'], interval: 3600, publish: false },
    after: { command: `echo ran > ${out}-2`, subscribers: ['t'], interval: 3600, publish: false },
  };
  writeTree(root, { 'conf.d/checks.json': { checks } });
  const { daemon, api } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal((await postJson(`${api}/request`, { check: 'signal' })).status, 202);
  await eventually(
    async () => existsSync(`${out}-1`),
    (done) => done,
    15_000,
  );
  const helper = helperOf(daemon.proc.pid!);
  assert.ok(helper, 'the helper runs');
  // The helper still answers: the next command runs through it after the signal was handled.
  assert.equal((await postJson(`${api}/request`, { check: 'after' })).status, 202);
  await eventually(
    async () => existsSync(`${out}-2`),
    (done) => done,
    15_000,
  );
  assert.equal(helperOf(daemon.proc.pid!), helper, 'the same helper, still running');
  assert.deepEqual(
    daemon.logs.filter((l) => /Debugger listening|inspector/i.test(String(l.msg))).map((l) => l.msg),
    [],
    'the inspector never opened',
  );
});
