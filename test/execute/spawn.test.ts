import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnCommand, TIMED_OUT_OUTPUT } from '../../src/execute/spawn.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { isRunning } from '../helpers/process.js';

test('exit statuses 0, 1, 2, 3 pass through', async () => {
  for (const status of [0, 1, 2, 3]) {
    const result = await spawnCommand(`echo status ${status}; exit ${status}`);
    assert.equal(result.status, status);
    assert.equal(result.output, `status ${status}\n`);
    assert.equal(result.timedOut, false);
  }
});

test('a command that is not found gives the shell message and 127', async () => {
  const result = await spawnCommand('definitely-not-a-command-xyz');
  assert.equal(result.status, 127);
  assert.equal(result.output, 'sh: 1: definitely-not-a-command-xyz: not found\n');
});

test('stdout and stderr are merged in write order', async () => {
  const result = await spawnCommand('echo one; echo two >&2; echo three; echo four >&2');
  assert.equal(result.output, 'one\ntwo\nthree\nfour\n');
});

test('stdin receives the data and is closed', async () => {
  const result = await spawnCommand('cat; echo; echo done', { stdin: '{"client":{"name":"a"}}' });
  assert.equal(result.output, '{"client":{"name":"a"}}\ndone\n');
});

test('without stdin data the command sees end of input at once', async () => {
  const result = await spawnCommand('cat; echo eof', { timeout: 5 });
  assert.equal(result.output, 'eof\n');
});

test('a timeout gives exactly "Execution timed out", status 2, and kills the whole group', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const pidFile = join(dir, 'grandchild.pid');
  const result = await spawnCommand(`sh -c 'sleep 30 & echo $! > ${pidFile}; wait' & echo partial; wait`, { timeout: 0.5 });
  assert.equal(result.output, TIMED_OUT_OUTPUT);
  assert.equal(result.status, 2);
  assert.equal(result.timedOut, true);
  assert.ok(existsSync(pidFile));
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(isRunning(grandchild), false, 'the grandchild survived the timeout');
});

test('a process that ignores TERM is killed after the grace period', async () => {
  const started = Date.now();
  const result = await spawnCommand("trap '' TERM; sleep 30", { timeout: 0.3 });
  assert.equal(result.output, TIMED_OUT_OUTPUT);
  assert.ok(Date.now() - started >= 3000, 'KILL came before the 3 s grace');
});

test('a child killed by a signal reports the signal number', async () => {
  const result = await spawnCommand('kill -9 $$');
  assert.equal(result.status, 9);
  assert.equal(result.signal, 'SIGKILL');
});

test('large output is kept whole', async () => {
  const result = await spawnCommand('head -c 200000 /dev/zero | tr "\\0" a');
  assert.equal(result.output.length, 200000);
});
