// A store connection's statement runner on its own: requests run in the order submitted, deferred writes before the
// next request (their row counts in its answer) or with the COMMIT after them, and a lost connection is reported down
// until it has connected again by itself.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { StatementRunner, type SyncReply, type SyncRequest } from '../../../src/store/postgres/statement-runner.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('runner');

async function runner(t: TestContext, downs: boolean[] = []): Promise<StatementRunner | null> {
  if (!server) return (t.skip(missing!), null);
  const made = new StatementRunner({ dsn: await freshDsn(), env: {}, queryTimeoutMs: 10_000, searchPath: 'public' }, (down) => downs.push(down));
  t.after(() => made.destroy(true));
  rowsOf(await made.submit({ id: 1, sql: 'CREATE TABLE t (k text PRIMARY KEY, n bigint)', simple: true }));
  return made;
}

const deferred = (id: number, sql: string): SyncRequest => ({ id, sql, deferred: true, inTransaction: true });
const rowsOf = (reply: SyncReply) => {
  if ('error' in reply) assert.fail(`unexpected failure: ${reply.error.message}`);
  return reply.rows;
};

test('requests submitted together are answered in order, each with its own rows', async (t) => {
  const r = await runner(t);
  if (!r) return;
  const replies = await Promise.all([
    r.submit({ id: 2, sql: "INSERT INTO t VALUES ('a', 1)", simple: true }),
    r.submit({ id: 3, sql: 'SELECT k, n FROM t' }),
    r.submit({ id: 4, sql: 'SELECT $1::int + 1 AS m', params: [41] }),
  ]);
  assert.deepEqual(
    replies.map((reply) => reply.id),
    [2, 3, 4],
  );
  assert.deepEqual(rowsOf(replies[1]!), [{ k: 'a', n: 1 }]);
  assert.deepEqual(rowsOf(replies[2]!), [{ m: 42 }]);
});

test('deferred writes run before the next request and answer their row counts there; COMMIT takes them with it', async (t) => {
  const r = await runner(t);
  if (!r) return;
  rowsOf(await r.submit({ id: 2, sql: 'BEGIN', simple: true }));
  const read = await r.submit({ id: 4, sql: 'SELECT count(*) AS c FROM t', before: [deferred(3, "INSERT INTO t VALUES ('a', 1), ('b', 2)")] });
  assert.deepEqual(rowsOf(read), [{ c: 2 }]);
  assert.deepEqual(read.changes, [[3, 2]]);
  const committed = await r.submit({ id: 6, sql: 'COMMIT', simple: true, before: [deferred(5, "DELETE FROM t WHERE k = 'a'")] });
  assert.ok(!('error' in committed));
  assert.equal(committed.command, 'COMMIT');
  assert.deepEqual(committed.changes, [[5, 1]]);
  assert.deepEqual(rowsOf(await r.submit({ id: 7, sql: 'SELECT k FROM t' })), [{ k: 'b' }]);
});

test('a deferred write failing with its COMMIT fails the COMMIT as the deferred write’s, and nothing of it is kept', async (t) => {
  const r = await runner(t);
  if (!r) return;
  rowsOf(await r.submit({ id: 2, sql: 'BEGIN', simple: true }));
  const failed = await r.submit({ id: 4, sql: 'COMMIT', simple: true, before: [deferred(3, "INSERT INTO t VALUES ('a', 1), ('a', 2)")] });
  assert.ok('error' in failed);
  assert.deepEqual([failed.error.code, failed.error.deferred], ['23505', true]);
  rowsOf(await r.submit({ id: 5, sql: 'ROLLBACK', simple: true, rollback: true }));
  assert.deepEqual(rowsOf(await r.submit({ id: 6, sql: 'SELECT count(*) AS c FROM t' })), [{ c: 0 }]);
});

test('a lost connection is reported down, and up again once it has connected by itself', async (t) => {
  const downs: boolean[] = [];
  const r = await runner(t, downs);
  if (!r) return;
  const pid = rowsOf(await r.submit({ id: 2, sql: 'SELECT pg_backend_pid() AS pid' }))[0]!.pid;
  await server!.query(`SELECT pg_terminate_backend(${Number(pid)})`);
  let lost: SyncReply | null = null;
  for (let id = 3; id < 50 && !lost; id++) {
    const reply = await r.submit({ id, sql: 'SELECT 1', inTransaction: true });
    if ('error' in reply) lost = reply;
  }
  assert.ok(lost && 'error' in lost && lost.error.unavailable, 'the loss is seen');
  for (let i = 0; i < 300 && downs.at(-1) !== false; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(downs, [true, false]);
  assert.deepEqual(rowsOf(await r.submit({ id: 60, sql: 'SELECT 1 AS one' })), [{ one: 1 }]);
});

test('once destroyed, nothing more runs: a request is answered as unavailable', async (t) => {
  const r = await runner(t);
  if (!r) return;
  r.destroy(false);
  const reply = await r.submit({ id: 2, sql: 'SELECT 1' });
  assert.ok('error' in reply && reply.error.unavailable);
});

test('once connected, a refusal to connect again is a lost connection: reported down, and up once it is accepted', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const name = new URL(dsn).pathname.slice(1);
  const downs: boolean[] = [];
  const r = new StatementRunner({ dsn, env: {}, queryTimeoutMs: 10_000, searchPath: 'public' }, (down) => downs.push(down));
  t.after(() => (r.destroy(false), void server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)));
  const pid = rowsOf(await r.submit({ id: 1, sql: 'SELECT pg_backend_pid() AS pid' }))[0]!.pid;
  await server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await server.query(`SELECT pg_terminate_backend(${Number(pid)})`);
  let refused: SyncReply | null = null;
  for (let id = 2; id < 50 && !refused; id++) {
    const reply = await r.submit({ id, sql: 'SELECT 1' });
    if ('error' in reply && reply.error.code === '55000') refused = reply;
  }
  assert.ok(refused && 'error' in refused, 'the refusal is seen');
  assert.equal(refused.error.unavailable, true, 'a lost connection, not the statement’s error');
  assert.equal(downs[0], true);
  await server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
  for (let i = 0; i < 300 && downs.at(-1) !== false; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(downs.at(-1), false, 'up again');
  assert.deepEqual(rowsOf(await r.submit({ id: 60, sql: 'SELECT 1 AS one' })), [{ one: 1 }]);
});

test('a refusal of the first connection (a wrong database, say) is the caller’s error, not a lost connection', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = new URL(await freshDsn());
  dsn.pathname = '/no_such_database';
  const downs: boolean[] = [];
  const r = new StatementRunner({ dsn: dsn.href, env: {}, queryTimeoutMs: 10_000, searchPath: 'public' }, (down) => downs.push(down));
  t.after(() => r.destroy(false));
  const reply = await r.submit({ id: 1, sql: 'SELECT 1' });
  assert.ok('error' in reply);
  assert.deepEqual([reply.error.code, reply.error.unavailable], ['3D000', false]);
  assert.deepEqual(downs, []);
});
