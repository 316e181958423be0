// The whole store on PostgreSQL: the store suite SQLite passes, plus what only a server connection has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import { SqlStateStore } from '../../../src/store/sql/sql-state-store.js';
import { tryRowLock } from '../../helpers/row-lock.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { PostgresQueryError } from '../../../src/store/postgres/query-error.js';
import { postgresForFile } from '../../servers/postgres.js';
import { storeSuite } from '../store-suite.js';
import { capturedLogger } from '../../helpers/log-capture.js';

const { server, missing, freshDsn } = await postgresForFile('store');

storeSuite(
  'postgres',
  server
    ? {
        fresh: freshDsn,
        open: (dsn) => StateStore.openPostgres(dsn, {}),
        async makeNewer(dsn) {
          await server.query('UPDATE checkbridge_store.store_schema SET version = version + 1', new URL(dsn).pathname.slice(1));
        },
      }
    : { skip: missing! },
);

const pgTest = (name: string, body: (dsn: string) => Promise<void> | void) =>
  test(`postgres: ${name}`, async (t) => {
    if (!server) return void t.skip(missing!);
    await body(await freshDsn());
  });

pgTest('int8 comes back as a number, server errors keep their message and SQLSTATE code, and named placeholders bind', (dsn) => {
  const store = StateStore.openPostgres(dsn, {});
  try {
    assert.deepEqual(store.db.prepare('SELECT COUNT(*) AS n, 9007199254740991::bigint AS big, @a::text || @b::text || @a::text AS s').get({ a: 'x', b: 'y' }), {
      n: 1,
      big: 9007199254740991,
      s: 'xyx',
    });
    assert.throws(
      () => store.db.prepare('SELECT * FROM no_such_table').get(),
      (error: unknown) => error instanceof PostgresQueryError && error.code === '42P01' && /no_such_table/.test(error.message),
    );
    // A question mark inside a literal is text, not a placeholder.
    assert.deepEqual(store.db.prepare("SELECT '?' AS q, ? AS p").get('v'), { q: '?', p: 'v' });
  } finally {
    store.close();
  }
});

pgTest('a connection dropped mid-transaction fails it with an error naming the store (password redacted); the next statement reconnects', async (dsn) => {
  await server!.query("CREATE ROLE keeper LOGIN PASSWORD 'hunter2'");
  await server!.query(`GRANT ALL ON SCHEMA public TO keeper; GRANT ALL ON DATABASE ${new URL(dsn).pathname.slice(1)} TO keeper`);
  const admin = StateStore.openPostgres(dsn, {});
  admin.db.prepare('GRANT ALL ON SCHEMA checkbridge_store TO keeper').run();
  admin.db.prepare('GRANT ALL ON ALL TABLES IN SCHEMA checkbridge_store TO keeper').run();
  admin.db.prepare('GRANT ALL ON ALL SEQUENCES IN SCHEMA checkbridge_store TO keeper').run();
  const store = StateStore.openPostgres(dsn.replace('postgres@', 'keeper:hunter2@'), {});
  const kill = () => admin.db.prepare("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'keeper'").all();
  try {
    store.putClient({ name: 'before' });
    assert.throws(
      () =>
        store.transaction(() => {
          store.putClient({ name: 'lost' });
          kill();
          store.putClient({ name: 'on a new connection, outside the transaction' });
        }),
      (error: unknown) =>
        error instanceof CheckbridgeError &&
        error.code === 'CB_STORE_UNAVAILABLE' &&
        error.message.includes('keeper:REDACTED@127.0.0.1') &&
        !error.message.includes('hunter2'),
    );
    assert.equal(store.db.inTransaction, false);
    assert.deepEqual(
      store.listClients().map((c) => c.name),
      ['before'],
    );
    // Between transactions: at most the one statement that meets the dead connection fails, clearly; the next reconnects.
    kill();
    try {
      store.putClient({ name: 'after' });
    } catch (error) {
      assert.equal((error as CheckbridgeError).code, 'CB_STORE_UNAVAILABLE');
    }
    store.putClient({ name: 'after' });
    assert.deepEqual(
      store.listClients().map((c) => c.name),
      ['after', 'before'],
    );
  } finally {
    store.close();
    admin.close();
  }
});

pgTest('an unreachable server is a clear error at open, not a hang', async () => {
  const started = Date.now();
  assert.throws(
    () => StateStore.openPostgres(`postgres://postgres@127.0.0.1:1/none?connect_timeout=3`, {}),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_UNAVAILABLE' && /127\.0\.0\.1:1/.test(error.message),
  );
  assert.ok(Date.now() - started < 30_000);
});

pgTest('lockResults holds a lock per client/check and per client until the transaction ends', (dsn) => {
  const store = StateStore.openPostgres(dsn, {});
  const watcher = StateStore.openPostgres(dsn, {});
  const held = () => Number((watcher.db.prepare("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted").get() as { n: number }).n);
  try {
    store.transaction(() => {
      store.lockResults([
        ['a', 'cpu'],
        ['b', 'cpu'],
        ['a', 'cpu'],
      ]);
      // a/cpu, b/cpu, and the clients a and b (what a keepalive on another server waits for).
      assert.equal(held(), 4);
      store.lockClients(['c']);
      assert.equal(held(), 5);
    });
    assert.equal(held(), 0);
  } finally {
    store.close();
    watcher.close();
  }
});

pgTest('group commit: writes travel together; a failing one fails only its savepoint (the batch runs again, each savepoint waiting)', (dsn) => {
  const store = StateStore.openPostgres(dsn, {});
  const key = { keyHash: 'taken', username: 'u', createdBy: 'u', createdAt: 1, hint: 'h' };
  store.resources.putApiKey(key);
  const outcomes: string[] = [];
  let retries = 0;
  try {
    store.groupCommit(
      () => {
        for (const name of ['first', 'failing', 'last']) {
          try {
            store.transaction(() => {
              store.putClient({ name });
              if (name === 'failing') store.resources.putApiKey(key);
            });
            outcomes.push(`${name}: ok`);
          } catch (error) {
            if (!store.db.inTransaction) throw error;
            outcomes.push(`${name}: ${(error as PostgresQueryError).code}`);
          }
        }
      },
      () => {
        retries++;
        outcomes.length = 0;
      },
    );
    assert.equal(retries, 1);
    assert.deepEqual(outcomes, ['first: ok', 'failing: 23505', 'last: ok']);
    assert.deepEqual(
      store.listClients().map((c) => c.name),
      ['first', 'last'],
    );
  } finally {
    store.close();
  }
});

pgTest('read answers from the rows it read in one round trip; afterwards reads are the database’s again', async (dsn) => {
  const [store, other] = [StateStore.openPostgres(dsn, {}), StateStore.openPostgres(dsn, {})];
  try {
    other.putClient({ name: 'web', v: 1 });
    const seen = await store.read({ pairs: [['web', 'disk']] }, () => {
      other.putClient({ name: 'web', v: 2 });
      return store.getClient('web');
    });
    assert.deepEqual(seen, { name: 'web', v: 1 });
    assert.deepEqual(store.getClient('web'), { name: 'web', v: 2 });
    assert.equal(await store.read({ pairs: [] }, () => 'nothing to read'), 'nothing to read');
  } finally {
    store.close();
    other.close();
  }
});

pgTest('a unit of work commits its writes and answers its value; the store says what it is', async (dsn) => {
  const store = StateStore.openPostgres(dsn, {});
  const other = StateStore.openPostgres(dsn, {});
  try {
    assert.deepEqual([store.engine, store.sqlite, store.unitsInFlight], ['postgres', null, 3]);
    assert.equal(store.schemaVersion(), Number((other.db.prepare('SELECT version FROM store_schema').get() as { version: number }).version));
    let retries = 0;
    const value = await store.unit(
      { pairs: [['web', 'disk']] },
      () => {
        store.putClient({ name: 'web', in: 'unit' });
        store.putResult('web', { name: 'disk', status: 2 }, [{ status: 2, executed: 5 }], null);
        return 'done';
      },
      () => retries++,
    );
    assert.deepEqual([value, retries], ['done', 0]);
    assert.deepEqual(other.getClient('web'), { name: 'web', in: 'unit' });
    assert.equal(other.getResult('web', 'disk')?.check.status, 2);
  } finally {
    store.close();
    other.close();
  }
});

pgTest('a store listening for changes reports no alarm and no problem once it listens', async (dsn) => {
  const store = StateStore.openPostgres(dsn, {});
  try {
    assert.equal(store.alarm(), null, 'not a daemon’s store: nothing to listen for');
    await store.listenForChanges(capturedLogger().logger);
    assert.equal(store.alarm(), null);
    assert.equal(store.problem(), '');
  } finally {
    store.close();
  }
});

test('postgres: the blocking group commit holds its v2 rows locks as a unit names them: another server cannot take them meanwhile', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const store = StateStore.openPostgres(dsn, {});
  t.after(() => store.close());
  const key = ['default', 'r'] as const;
  // Another server's unit would take this lock before its check; here a separate session tries for half a second.
  let answer = '';
  // The blocking path (what a unit falls back to after its optimistic runs), run directly.
  await SqlStateStore.prototype.unit.call(
    store,
    { pairs: [], v2: { events: [], entities: [key] } },
    () => {
      answer = tryRowLock(dsn, ...key);
    },
    () => undefined,
  );
  assert.equal(answer, 'waited');
});
