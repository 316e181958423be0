// One PostgresConfig at run time: which failures count as the connection's, an attempt that migrates and probes (its
// failures counted and logged), and the strict check that the user may create tables, which keeps nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgresBackend, checkCanCreateTables, isConnectionError, reason } from '../../../src/store/postgres/backend.js';
import { PG_TYPE, type PostgresConfig } from '../../../src/store/postgres/config.js';
import { PG_SCHEMA_VERSION } from '../../../src/store/postgres/schema.js';
import { postgresForFile } from '../../servers/postgres.js';
import { capturedLogger } from '../../helpers/log-capture.js';

const { server, missing, freshDsn } = await postgresForFile('backend');

const configOf = (name: string, dsn: string, strict = false): PostgresConfig => ({
  type: PG_TYPE,
  api_version: 'store/v1',
  metadata: { name },
  spec: { dsn, pool_size: 2, strict },
});
const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test('connection failures are the refused, reset, lost and authentication ones; a bad query is not', () => {
  for (const code of ['08006', '08001', '57P01', '57P03', '28000', '28P01']) assert.equal(isConnectionError(coded(code)), true, code);
  for (const code of ['23505', '42P01', '42501', '25P02']) assert.equal(isConnectionError(coded(code)), false, code);
  assert.equal(isConnectionError(coded('ECONNREFUSED')), true, 'a socket error');
  assert.equal(isConnectionError(new Error('Connection terminated unexpectedly')), true, 'no code at all');
});

test('the reason of a failure is its message, else its code, else the value', () => {
  assert.equal(reason(coded('08006', 'the server went away')), 'the server went away');
  assert.equal(reason(coded('ECONNRESET', '')), 'ECONNRESET');
  assert.equal(reason('plain text'), 'plain text');
});

test('an attempt on a reachable database migrates it and connects; one on a refused port counts and logs each failure', async (t) => {
  if (!server) return void t.skip(missing!);
  const { logger, lines } = capturedLogger();
  const up = new PostgresBackend(configOf('main', await freshDsn(), true), {}, logger);
  t.after(() => up.close());
  assert.deepEqual([up.name, up.strict, up.store.label], ['main', true, 'postgres:main']);
  assert.equal(await up.attempt(), true);
  assert.deepEqual([up.connected, up.failures, up.lastError], [true, 0, '']);
  assert.deepEqual((await up.store.pool.query('SELECT version FROM checkbridge_schema')).rows, [{ version: PG_SCHEMA_VERSION }]);
  assert.equal(await up.attempt(), true, 'again: already migrated');

  const down = new PostgresBackend(configOf('down', `postgres://postgres@127.0.0.1:1/none`), {}, logger);
  t.after(() => down.close());
  assert.equal(down.strict, false);
  assert.equal(await down.attempt(), false);
  assert.equal(await down.attempt(), false);
  assert.deepEqual([down.connected, down.failures], [false, 2]);
  assert.match(down.lastError, /ECONNREFUSED/);
  const warned = lines.filter((l) => l.msg === 'postgres event store connection attempt failed');
  assert.deepEqual(
    warned.map((l) => [l.postgres, l.attempt, l.level]),
    [
      ['down', 1, 40],
      ['down', 2, 40],
    ],
  );
  // Back: the count starts again.
  down.succeeded();
  assert.deepEqual([down.connected, down.failures, down.lastError], [true, 0, '']);
});

test('a DSN that cannot be read fails when the backend is made', () => {
  assert.throws(() => new PostgresBackend(configOf('bad', 'not a dsn'), {}, capturedLogger().logger), /dsn: cannot read the keyword\/value pair/);
});

test('the strict check: a user who may create tables passes and nothing is kept; others are told why', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  assert.equal(await checkCanCreateTables(configOf('ok', dsn, true), {}), null);
  const database = new URL(dsn).pathname.slice(1);
  assert.equal((await server.query("SELECT to_regclass('checkbridge_permission_check') AS t", database)).rows[0].t, null, 'rolled back');

  await server.query('CREATE ROLE onlyreads LOGIN');
  // As PostgreSQL 15 has it by default, whatever the version: only the owner creates in public.
  await server.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC', database);
  const denied = await checkCanCreateTables(configOf('ro', server.url('onlyreads', database), true), {});
  assert.match(String(denied), /^the PostgreSQL user may not create tables: permission denied for schema public/);

  const refused = await checkCanCreateTables(configOf('gone', `postgres://postgres@127.0.0.1:1/none`, true), {});
  assert.match(String(refused), /^cannot connect to PostgreSQL: .*ECONNREFUSED/);
  assert.match(String(await checkCanCreateTables(configOf('bad', 'postgres://[', true), {})), /dsn: not a valid postgres:\/\/ URL$/);
});
