// A store connection in a worker thread: a caller may block for its answer or await it, a late answer is given up on
// with the connection to be replaced, and a terminated link answers its waiter at once.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerLink, isNoAnswer, lateBy } from '../../../src/store/postgres/connection-link.js';
import { postgresForFile } from '../../servers/postgres.js';

const { server, missing, freshDsn } = await postgresForFile('link');

async function linked(t: TestContext): Promise<WorkerLink | null> {
  if (!server) return (t.skip(missing!), null);
  const link = new WorkerLink({ dsn: await freshDsn(), env: {}, queryTimeoutMs: 10_000, searchPath: 'public' });
  t.after(() => link.terminate());
  return link;
}

test('a caller blocks for its answer, or awaits it', async (t) => {
  const link = await linked(t);
  if (!link) return;
  assert.equal(link.canBlock, true);
  link.post({ id: 1, sql: 'SELECT 1 AS one' });
  const blocked = link.blockFor(1, 10_000, null);
  assert.ok(!isNoAnswer(blocked) && 'rows' in blocked);
  assert.deepEqual(blocked.rows, [{ one: 1 }]);
  link.post({ id: 2, sql: 'SELECT 2 AS two' });
  const awaited = await link.answer(2, 10_000);
  assert.ok(!isNoAnswer(awaited) && 'rows' in awaited);
  assert.deepEqual(awaited.rows, [{ two: 2 }]);
  assert.equal(link.down, false);
});

test('a late answer is given up on, blocking or awaited, with the connection to be replaced; a caller may give up sooner', async (t) => {
  const link = await linked(t);
  if (!link) return;
  link.post({ id: 1, sql: 'SELECT pg_sleep(1)' });
  assert.deepEqual(link.blockFor(1, 100, null), { lost: lateBy(100), replace: true });
  assert.deepEqual(
    link.blockFor(1, 10_000, (waited) => (waited > 100 ? 'the probe is silent' : null)),
    { lost: 'the probe is silent', replace: true },
  );
  link.post({ id: 2, sql: 'SELECT pg_sleep(1)' });
  assert.deepEqual(await link.answer(2, 100), { lost: lateBy(100), replace: true });
  const waiting = link.answer(2, 10_000);
  link.terminate();
  const gone = await waiting;
  assert.ok(isNoAnswer(gone) && !gone.replace);
});
