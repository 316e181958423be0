import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RemoteSpawner } from '../../src/execute/remote-spawner.js';
import { isRunning } from '../helpers/process.js';

test('the helper process runs commands with stdin, exit status and timeout, as the in-process spawner does', async (t) => {
  const spawner = new RemoteSpawner();
  t.after(() => spawner.close());
  const echo = await spawner.spawn('cat; echo " and more"; exit 3', { stdin: 'from stdin' });
  assert.deepEqual([echo.status, echo.output], [3, 'from stdin and more\n']);
  const slow = await spawner.spawn('sleep 20', { timeout: 0.5 });
  assert.deepEqual([slow.status, slow.output, slow.timedOut], [2, 'Execution timed out', true]);
  const many = await Promise.all(Array.from({ length: 20 }, (_, i) => spawner.spawn(`echo ${i}`)));
  assert.deepEqual(
    many.map((r) => r.output.trim()),
    Array.from({ length: 20 }, (_, i) => String(i)),
  );
});

test('a helper that dies fails its running commands with status 3; the next command starts a new helper', async (t) => {
  const spawner = new RemoteSpawner();
  t.after(() => spawner.close());
  const running = spawner.spawn('sleep 20');
  await new Promise((r) => setTimeout(r, 300));
  const helper = (spawner as unknown as { child: { pid: number } }).child.pid;
  process.kill(helper, 'SIGKILL');
  const failed = await running;
  assert.equal(failed.status, 3);
  assert.match(failed.output, /spawner process exited/);
  assert.equal((await spawner.spawn('echo back')).output, 'back\n');
});

test('close stops every running command process group', async () => {
  const spawner = new RemoteSpawner();
  const running = spawner.spawn('echo $$; sleep 30');
  await new Promise((r) => setTimeout(r, 300));
  await spawner.close(500);
  const result = await running;
  const pid = Number(result.output.trim().split('\n')[0]);
  assert.ok(pid > 0);
  assert.equal(isRunning(pid), false);
});
