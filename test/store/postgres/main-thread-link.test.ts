// A store connection the main thread runs: answers are awaited (never blocked for), late ones given up on with the
// connection to be replaced, a terminated link answers its waiters at once, and an idle connection does not keep the
// process alive (a command that never closes its store still exits).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MainThreadLink } from '../../../src/store/postgres/main-thread-link.js';
import { isNoAnswer } from '../../../src/store/postgres/connection-link.js';
import type { SyncReply } from '../../../src/store/postgres/statement-runner.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('mainlink');

async function linked(t: TestContext, queryTimeoutMs = 10_000): Promise<MainThreadLink | null> {
  if (!server) return (t.skip(missing!), null);
  const link = new MainThreadLink({ dsn: await freshDsn(), env: {}, queryTimeoutMs, searchPath: 'public' });
  t.after(() => link.terminate(true));
  return link;
}

const rowsOf = (reply: SyncReply | { lost: string }) => {
  if (isNoAnswer(reply as SyncReply) || 'error' in reply) assert.fail(`unexpected: ${JSON.stringify(reply)}`);
  return (reply as { rows: unknown[] }).rows;
};

test('statements are awaited in order, an answer that came first is kept for its caller, and none can be blocked for', async (t) => {
  const link = await linked(t);
  if (!link) return;
  assert.equal(link.canBlock, false);
  assert.ok(isNoAnswer(link.blockFor()));
  link.post({ id: 1, sql: 'SELECT 1 AS one' });
  link.post({ id: 2, sql: 'SELECT 2 AS two' });
  const second = link.answer(2, 5_000);
  // The first was answered before anyone awaited it.
  await second;
  assert.deepEqual(rowsOf(await link.answer(1, 5_000)), [{ one: 1 }]);
  assert.deepEqual(rowsOf(await second), [{ two: 2 }]);
});

test('an answer not come within its wait is given up on, the connection to be replaced; terminating answers the waiters', async (t) => {
  const link = await linked(t);
  if (!link) return;
  link.post({ id: 1, sql: 'SELECT pg_sleep(2)' });
  const late = await link.answer(1, 100);
  assert.deepEqual(late, { lost: 'no answer within 0.1 s', replace: true });
  link.post({ id: 2, sql: 'SELECT pg_sleep(2)' });
  const waiting = link.answer(2, 10_000);
  link.terminate();
  const gone = await waiting;
  assert.ok(isNoAnswer(gone) && !gone.replace && /replaced/.test(gone.lost));
});

test('an idle connection does not keep the process alive', async (t) => {
  if (!server) return void t.skip(missing!);
  const module = fileURLToPath(new URL('../../../src/store/postgres/main-thread-link.js', import.meta.url));
  const script = `
    const { MainThreadLink } = await import(${JSON.stringify(module)});
    const link = new MainThreadLink({ dsn: ${JSON.stringify(await freshDsn())}, env: {}, queryTimeoutMs: 10000, searchPath: 'public' });
    link.post({ id: 1, sql: 'SELECT 1 AS one' });
    const reply = await link.answer(1, 10000);
    console.log(JSON.stringify(reply.rows));`;
  // Exits once its statement is answered, the connection still open and never closed.
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.signal, null, 'it exited by itself');
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), '[{"one":1}]');
});
