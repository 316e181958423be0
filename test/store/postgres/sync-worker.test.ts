// The connection thread behind the synchronous client, spoken to as the client speaks to it: each answer posted on the
// port and its id written to the shared flag; deferred writes run before the next request (their row counts, or their
// failure, in its answer); COMMIT takes the writes before it in the same round trip.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { SyncReply, SyncRequest } from '../../../src/store/postgres/statement-runner.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('worker');

interface Thread {
  ask(request: SyncRequest): Promise<SyncReply>;
  flag: Int32Array;
}

async function thread(t: TestContext): Promise<Thread | null> {
  if (!server) return (t.skip(missing!), null);
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('../../../src/store/postgres/sync-worker.js', import.meta.url), {
    workerData: { dsn: await freshDsn(), env: {}, flag: flag.buffer, port: port2, queryTimeoutMs: 10_000, searchPath: 'public' },
    transferList: [port2],
  });
  t.after(() => (port1.close(), worker.terminate()));
  const ask = (request: SyncRequest) => {
    const answered = new Promise<SyncReply>((resolve) => (port1 as MessagePort).once('message', resolve));
    port1.postMessage(request);
    return answered;
  };
  const made = await ask({ id: 1, sql: 'CREATE TABLE t (k text PRIMARY KEY, n bigint)', simple: true });
  assert.ok(!('error' in made));
  return { ask, flag };
}

/** The flag's slot 0 once the thread has written `id` there (it does so just after posting the answer). */
function flagOnceWritten(flag: Int32Array, id: number): number {
  for (let i = 0; i < 100 && Atomics.load(flag, 0) !== id; i++) Atomics.wait(flag, 0, Atomics.load(flag, 0), 50);
  return Atomics.load(flag, 0);
}

const deferred = (id: number, sql: string): SyncRequest => ({ id, sql, deferred: true, inTransaction: true });
const rowsOf = (reply: SyncReply) => {
  if ('error' in reply) assert.fail(`unexpected failure: ${reply.error.message}`);
  return reply.rows;
};

test('a parameterized statement is answered with its rows, bigint as a number, and the flag holds its id', async (t) => {
  const w = await thread(t);
  if (!w) return;
  const reply = await w.ask({ id: 2, sql: 'SELECT $1::text AS s, 9007199254740991::bigint AS big, 1.5::numeric AS num', params: ['x'] });
  assert.deepEqual(rowsOf(reply), [{ s: 'x', big: 9007199254740991, num: 1.5 }]);
  assert.equal(reply.id, 2);
  assert.equal(flagOnceWritten(w.flag, 2), 2);
  const failed = await w.ask({ id: 3, sql: 'SELECT * FROM nothing_here' });
  assert.ok('error' in failed);
  assert.deepEqual([failed.error.code, failed.error.unavailable], ['42P01', false]);
  assert.equal(Atomics.load(w.flag, 1), 0, 'a server error is not a lost connection');
});

test('deferred writes run before the next request, which answers their row counts; COMMIT takes them with it', async (t) => {
  const w = await thread(t);
  if (!w) return;
  rowsOf(await w.ask({ id: 2, sql: 'BEGIN', simple: true }));
  const barrier = await w.ask({
    id: 5,
    sql: '',
    barrier: true,
    before: [deferred(3, "INSERT INTO t VALUES ('a', 1), ('b', 2)"), deferred(4, "UPDATE t SET n = n + 1 WHERE k = 'zzz'")],
  });
  assert.deepEqual(barrier.changes, [
    [3, 2],
    [4, 0],
  ]);
  const committed = await w.ask({ id: 7, sql: 'COMMIT', simple: true, before: [deferred(6, "DELETE FROM t WHERE k = 'a'")] });
  assert.ok(!('error' in committed));
  assert.equal(committed.command, 'COMMIT');
  assert.deepEqual(committed.changes, [[6, 1]]);
  assert.deepEqual(rowsOf(await w.ask({ id: 8, sql: 'SELECT k, n FROM t' })), [{ k: 'b', n: 2 }]);
});

test('a failed deferred write answers the next request; the rollback still runs, and writes after it are dropped', async (t) => {
  const w = await thread(t);
  if (!w) return;
  rowsOf(await w.ask({ id: 2, sql: 'BEGIN', simple: true }));
  const failed = await w.ask({ id: 4, sql: 'SELECT 1', before: [deferred(3, "INSERT INTO t VALUES ('a', 1), ('a', 2)")] });
  assert.ok('error' in failed);
  assert.deepEqual([failed.error.code, failed.error.deferred, failed.error.unavailable], ['23505', true, false]);
  const rolledBack = await w.ask({ id: 5, sql: 'ROLLBACK', simple: true, rollback: true });
  assert.ok(!('error' in rolledBack));
  assert.equal(rolledBack.command, 'ROLLBACK');
  assert.deepEqual(rowsOf(await w.ask({ id: 6, sql: 'SELECT count(*) AS c FROM t' })), [{ c: 0 }]);
});

test('a multi-statement request answers each statement’s rows; close answers and ends the thread’s connection', async (t) => {
  const w = await thread(t);
  if (!w) return;
  const multi = await w.ask({ id: 2, sql: "BEGIN; SELECT 1 AS one; SELECT 'two' AS two", simple: true, multi: true });
  assert.ok(!('error' in multi));
  assert.deepEqual(
    multi.results?.map((r) => [r.command, r.rows]),
    [
      ['BEGIN', []],
      ['SELECT', [{ one: 1 }]],
      ['SELECT', [{ two: 'two' }]],
    ],
  );
  const closed = await w.ask({ id: 3, sql: '', close: true });
  assert.ok(!('error' in closed));
  assert.equal(closed.command, 'CLOSE');
  assert.equal(flagOnceWritten(w.flag, 3), 3);
});

test('a request of a transaction whose connection is gone fails as lost, and the flag says so until it reconnects', async (t) => {
  const w = await thread(t);
  if (!w) return;
  rowsOf(await w.ask({ id: 2, sql: 'BEGIN', simple: true }));
  const pid = rowsOf(await w.ask({ id: 3, sql: 'SELECT pg_backend_pid() AS pid', inTransaction: true }))[0]!.pid;
  await server!.query(`SELECT pg_terminate_backend(${Number(pid)})`);
  let lost: SyncReply | null = null;
  for (let id = 4; id < 50 && !lost; id++) {
    const reply = await w.ask({ id, sql: 'SELECT 1', inTransaction: true });
    if ('error' in reply) lost = reply;
  }
  assert.ok(lost && 'error' in lost, 'the loss is seen');
  assert.equal(lost.error.unavailable, true);
  // Connected again on its own: the flag's second slot clears, and a new request runs.
  for (let i = 0; i < 300 && Atomics.load(w.flag, 1) === 1; i++) Atomics.wait(w.flag, 1, 1, 50);
  assert.equal(Atomics.load(w.flag, 1), 0);
  assert.deepEqual(rowsOf(await w.ask({ id: 60, sql: 'SELECT 1 AS one' })), [{ one: 1 }]);
});
