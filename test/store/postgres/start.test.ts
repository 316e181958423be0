// `checkbridge run`'s event stores: the stored PostgresConfigs tried at start with the PG* variables of the daemon's
// environment (its withheld password included), the embedded store used while there is none.
import { test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startEventStores } from '../../../src/store/postgres/start.js';
import { PG_TYPE } from '../../../src/store/postgres/config.js';
import { withholdCredentials } from '../../../src/config/index.js';
import { postgresForFile } from '../../servers/postgres.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import type { Json } from '../../../src/json.js';

const { server, missing } = await postgresForFile('start');

test('nothing stored: the embedded store, which its events go to', async (t) => {
  const store = sqliteStore(t);
  const router = await startEventStores(store, capturedLogger().logger);
  t.after(() => router.close());
  assert.equal(router.embeddedActive(), true);
  assert.equal(router.health(), undefined);
  await router.putMany([{ namespace: 'default', entity: 'e', check: 'c', event: { check: { status: 0 } } as Json }]);
  assert.deepEqual(store.resources.getEvent('default', 'e', 'c'), { check: { status: 0 } });
});

test('a stored configuration is connected at start, with the PostgreSQL password withheld from process.env', async (t) => {
  if (!server) return void t.skip(missing!);
  // A role that must give its password (the file's server trusts everyone else).
  await server.query("CREATE ROLE keeper LOGIN PASSWORD 'pw-at-start'");
  await server.query('CREATE DATABASE kept OWNER keeper');
  const hba = join(server.dataDir, 'pg_hba.conf');
  writeFileSync(hba, `host all keeper 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
  await server.query('SELECT pg_reload_conf()');
  const store = sqliteStore(t);
  const config = {
    type: PG_TYPE,
    api_version: 'store/v1',
    metadata: { name: 'main' },
    spec: { dsn: `host=127.0.0.1 port=${server.port} user=keeper dbname=kept` },
  };
  store.resources.putResource(PG_TYPE, '', 'main', config as unknown as Json);
  // As `checkbridge run` starts: the password taken out of process.env, kept for the daemon's own use.
  process.env.PGPASSWORD = 'pw-at-start';
  withholdCredentials();
  assert.equal(process.env.PGPASSWORD, undefined);
  const router = await startEventStores(store, capturedLogger().logger);
  t.after(() => router.close());
  assert.deepEqual(router.health(), [{ Name: 'main', Active: true, Healthy: true }]);
  assert.equal(router.label, 'postgres:main');
  await router.putMany([{ namespace: 'default', entity: 'e', check: 'c', event: { check: { status: 2 } } as Json }]);
  assert.deepEqual((await server.query('SELECT sensu_check, status FROM events', 'kept')).rows, [{ sensu_check: 'c', status: 2 }]);
  assert.equal(store.resources.getEvent('default', 'e', 'c'), null);
});
