// The spawner helper process, spoken to directly over its IPC channel: it runs commands and answers by request id,
// stops every process group on request, ignores the daemon's signals, and leaves (stopping its commands) once the
// daemon is gone.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunning } from '../helpers/process.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { until } from '../helpers/wait.js';

const HOST = fileURLToPath(new URL('../../src/execute/spawner-host.js', import.meta.url));

interface Request {
  readonly id: number;
  readonly command?: string;
  readonly options?: { stdin?: string };
  readonly stopAll?: number;
}

interface Answer {
  readonly id: number;
  readonly result?: { status: number; output: string; timedOut: boolean };
  readonly stopped?: true;
}

function host(t: TestContext): { child: ChildProcess; ask: (request: Request) => Promise<Answer> } {
  const child = fork(HOST, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const waiting = new Map<number, (answer: Answer) => void>();
  child.on('message', (answer: Answer) => waiting.get(answer.id)?.(answer));
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, ask: (request) => new Promise((resolve) => (waiting.set(request.id, resolve), child.send(request))) };
}

test('each command is answered with its result under its request id, whatever order they finish in', async (t) => {
  const { ask } = host(t);
  const [slow, fast, fed] = await Promise.all([
    ask({ id: 1, command: 'sleep 0.3; echo slow' }),
    ask({ id: 2, command: 'echo fast; exit 2' }),
    ask({ id: 3, command: 'cat', options: { stdin: 'fed' } }),
  ]);
  assert.deepEqual(
    [slow, fast, fed].map((a) => [a.id, a.result?.status, a.result?.output]),
    [
      [1, 0, 'slow\n'],
      [2, 2, 'fast\n'],
      [3, 0, 'fed'],
    ],
  );
});

test("stopAll ends every running command's process group and says so; SIGTERM and SIGINT are the daemon's to act on", async (t) => {
  const { child, ask } = host(t);
  // Answering means its handlers are in place.
  assert.equal((await ask({ id: 0, command: 'echo ready' })).result?.output, 'ready\n');
  child.kill('SIGTERM');
  child.kill('SIGINT');
  const running = ask({ id: 1, command: 'sleep 30; echo never' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(await ask({ id: 2, stopAll: 500 }), { id: 2, stopped: true });
  const stopped = await running;
  assert.notEqual(stopped.result?.output, 'never\n');
  assert.equal(child.exitCode, null, 'still running after SIGTERM and SIGINT');
});

test('once the daemon disconnects, the helper stops the commands it started and exits 0', async (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const { child } = host(t);
  const pidFile = join(dir, 'pid');
  child.send({ id: 1, command: `echo $$ > ${pidFile}; exec sleep 30` });
  assert.ok(await until(() => readFileSync(pidFile, { flag: 'a+' }).toString().trim() !== '', 20_000));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(isRunning(pid));
  const exited = once(child, 'exit');
  child.disconnect();
  const [code] = (await exited) as [number | null];
  assert.equal(code, 0);
  assert.equal(isRunning(pid), false);
});
