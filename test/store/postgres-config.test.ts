// PostgresConfig end to end against a real PostgreSQL: the API and `create -f`, strict and non-strict, health, fallback.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { instanceFor, getJson, eventually, ADMIN_PASSWORD } from '../helpers/instance.js';
import { freePort, tcpExchange } from '../helpers/net.js';
import { runCli } from '../helpers/cli.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { postgresFor, type PostgresServer } from '../servers/postgres.js';

import type { Json } from '../../src/json.js';
const CLIENT = { 'conf.d/client.json': { client: { name: 'pg-host', address: '127.0.0.1', subscriptions: [] } } };
const provider = (v2: string, name = '') => `${v2}/api/enterprise/store/v1/provider${name ? `/${name}` : ''}`;
const config = (name: string, dsn: string, strict: boolean) => ({
  type: 'PostgresConfig',
  api_version: 'store/v1',
  metadata: { name },
  spec: { dsn, pool_size: 4, strict },
});

/** A PostgreSQL with a database `cb` owned by `writer` (may create tables) and a `reader` login that may not, a daemon and an
 * admin token; null when the test is skipped for want of PostgreSQL. */
async function setUp(t: TestContext) {
  const server = await postgresFor(t);
  if (!server) return null;
  await server.query('CREATE ROLE writer LOGIN');
  await server.query('CREATE ROLE reader LOGIN');
  await server.query('CREATE DATABASE cb OWNER writer');
  const instance = await instanceFor(t, CLIENT);
  return { server, ...instance, auth: `Bearer ${await adminToken(instance.v2)}` };
}

const pgEvents = async (server: PostgresServer) =>
  (await server.query('SELECT sensu_namespace, sensu_entity, sensu_check, status FROM events ORDER BY sensu_check', 'cb')).rows.map(
    (r) => `${r.sensu_namespace}/${r.sensu_entity}/${r.sensu_check}:${r.status}`,
  );

const sqliteEvents = (root: string) => {
  const db = new Database(join(root, 'state', 'checkbridge.db'), { readonly: true });
  try {
    return (db.prepare('SELECT namespace, entity, check_name FROM v2_events ORDER BY check_name').all() as Json[]).map(
      (r) => `${r.namespace}/${r.entity}/${r.check_name}`,
    );
  } finally {
    db.close();
  }
};

test('strict PostgresConfig: refused with a bad DSN or a user who cannot create tables; used once stored; admins only; create -f and dump', async (t) => {
  const setup = await setUp(t);
  if (!setup) return;
  const { server, v2, socket, root, daemon, auth } = setup;
  assert.equal((await getJson(`${v2}/health`)).body.PostgresHealth, undefined, 'absent while none is configured');

  assert.equal((await call(provider(v2), 'GET', null)).status, 401);
  assert.equal((await call(`${v2}/api/core/v2/users/olga`, 'PUT', auth, { username: 'olga', password: 'olga-pass-1', groups: ['ops'] })).status, 201);
  const olga = `Bearer ${(await getJson(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from('olga:olga-pass-1').toString('base64') } })).body.access_token}`;
  assert.equal((await call(provider(v2, 'main'), 'PUT', olga, config('main', server.url('writer', 'cb'), true))).status, 403, 'admins only');
  assert.equal((await call(provider(v2), 'GET', olga)).status, 403);

  const closed = await freePort();
  const bad = await call(provider(v2, 'main'), 'PUT', auth, config('main', `postgres://writer@127.0.0.1:${closed}/cb`, true));
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /refused \(strict\): cannot connect to PostgreSQL/);
  const reader = await call(provider(v2, 'main'), 'PUT', auth, config('main', `host=127.0.0.1 port=${server.port} user=reader dbname=cb`, true));
  assert.equal(reader.status, 400);
  assert.match(reader.body.message, /may not create tables/);
  assert.deepEqual((await call(provider(v2), 'GET', auth)).body, [], 'nothing stored');
  assert.equal((await call(provider(v2, 'main'), 'PUT', auth, { ...config('main', server.url(), true), spec: { dsn: 'x', strict: 'yes' } })).status, 400);

  // Before: events live in the embedded store.
  assert.equal(await tcpExchange(socket, '{"name":"before","output":"x","status":1}'), 'ok');
  assert.deepEqual(sqliteEvents(root), ['default/pg-host/before']);

  const file = join(root, 'pg.yaml');
  writeFileSync(
    file,
    `type: PostgresConfig\napi_version: store/v1\nmetadata:\n  name: main\nspec:\n  dsn: "host=127.0.0.1 port=${server.port} user=writer dbname=cb"\n  pool_size: 4\n  strict: true\n`,
  );
  const cli = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const created = runCli(['create', '-f', file, '--url', v2], cli);
  assert.equal(created.code, 0, created.stderr);
  const dumped = runCli(['dump', 'store/v1.PostgresConfig', '--url', v2], cli);
  assert.equal(dumped.code, 0, dumped.stderr);
  const doc = parse(dumped.stdout);
  assert.deepEqual([doc.type, doc.api_version, doc.metadata.name, doc.spec.strict, doc.spec.pool_size], ['PostgresConfig', 'store/v1', 'main', true, 4]);
  assert.equal((await call(provider(v2, 'main'), 'GET', auth)).body.spec.dsn, `host=127.0.0.1 port=${server.port} user=writer dbname=cb`);
  assert.deepEqual((await getJson(`${v2}/health`)).body.PostgresHealth, [{ Name: 'main', Active: true, Healthy: true }]);
  await daemon.waitFor((l) => l.msg === 'switched event store to postgres' && l.postgres === 'main');

  // While active: a result answered ok is in PostgreSQL, not in the embedded store; the v2 API reads and selects there.
  assert.equal(await tcpExchange(socket, '[{"name":"disk","output":"full","status":2},{"name":"load","output":"fine","status":0}]'), 'ok');
  assert.deepEqual(await pgEvents(server), ['default/pg-host/disk:2', 'default/pg-host/load:0']);
  assert.deepEqual(sqliteEvents(root), ['default/pg-host/before']);
  const selected = await call(`${v2}/api/core/v2/namespaces/default/events?fieldSelector=${encodeURIComponent('event.check.status == 2')}`, 'GET', auth);
  assert.deepEqual(
    selected.body.map((e: Json) => e.check.metadata.name),
    ['disk'],
  );
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/pg-host/disk`, 'GET', auth)).body.check.output, 'full');
  const posted = {
    entity: { entity_class: 'proxy', metadata: { name: 'router' } },
    check: { metadata: { name: 'ping' }, status: 1, executed: 100, output: 'lost', interval: 60 },
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/router/ping`, 'PUT', auth, posted)).status, 201);
  assert.equal(
    (await call(`${v2}/api/core/v2/namespaces/default/events/router/ping`, 'PUT', auth, { ...posted, check: { ...posted.check, executed: 160 } })).status,
    201,
  );
  const ping = (await call(`${v2}/api/core/v2/namespaces/default/events/router/ping`, 'GET', auth)).body;
  assert.deepEqual([ping.check.occurrences, ping.check.history.length], [2, 2]);
  assert.ok((await pgEvents(server)).includes('default/router/ping:1'));

  // Strict and unreachable: the write waits (retried every 5 s) and lands in PostgreSQL once it is back.
  server.kill();
  let answered: string | null = null;
  const waiting = tcpExchange(socket, '{"name":"during","output":"y","status":1}').then((a) => (answered = a));
  await sleep(1500);
  assert.equal(answered, null, 'no answer while PostgreSQL is down');
  server.start();
  await waiting;
  assert.equal(answered, 'ok');
  assert.ok((await pgEvents(server)).includes('default/pg-host/during:1'));
  assert.deepEqual(sqliteEvents(root), ['default/pg-host/before'], 'never silently elsewhere');

  assert.equal((await call(provider(v2, 'main'), 'DELETE', auth)).status, 204);
  assert.equal((await call(provider(v2, 'main'), 'DELETE', auth)).status, 404);
  assert.equal((await getJson(`${v2}/health`)).body.PostgresHealth, undefined);
  assert.equal(await tcpExchange(socket, '{"name":"after","output":"z","status":0}'), 'ok');
  assert.deepEqual(sqliteEvents(root), ['default/pg-host/after', 'default/pg-host/before']);
});

test('non-strict PostgresConfig: falls back to the embedded store after 3 failed attempts and returns when PostgreSQL does', async (t) => {
  const setup = await setUp(t);
  if (!setup) return;
  const { server, v2, socket, root, daemon, auth } = setup;
  assert.equal((await call(provider(v2, 'soft'), 'PUT', auth, config('soft', server.url('writer', 'cb'), false))).status, 201);
  assert.deepEqual((await getJson(`${v2}/health`)).body.PostgresHealth, [{ Name: 'soft', Active: true, Healthy: true }]);
  assert.equal(await tcpExchange(socket, '{"name":"one","output":"a","status":1}'), 'ok');
  assert.deepEqual(await pgEvents(server), ['default/pg-host/one:1']);

  server.kill();
  // Every result still answered ok, each committed in the store in use: after 3 failed attempts, the embedded one.
  assert.equal(await tcpExchange(socket, '{"name":"two","output":"b","status":2}'), 'ok');
  const switched = await daemon.waitFor((l) => l.msg === 'switched event store to embedded' && l.postgres === 'soft');
  assert.equal(switched.attempts, 3);
  assert.equal(switched.level, 40, 'a warning');
  assert.deepEqual(sqliteEvents(root), ['default/pg-host/two']);
  assert.deepEqual((await getJson(`${v2}/health`)).body.PostgresHealth, [{ Name: 'soft', Active: false, Healthy: false }]);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/pg-host/two`, 'GET', auth)).body.check.output, 'b');

  server.start();
  const back = daemon.logs.length;
  await daemon.waitFor((l) => l.msg === 'switched event store to postgres' && l.postgres === 'soft', 15_000, back);
  const health = await eventually(
    () => getJson(`${v2}/health`),
    (r) => r.body.PostgresHealth?.[0]?.Active === true,
  );
  assert.deepEqual(health.body.PostgresHealth, [{ Name: 'soft', Active: true, Healthy: true }]);
  assert.equal(await tcpExchange(socket, '{"name":"three","output":"c","status":0}'), 'ok');
  assert.deepEqual(await pgEvents(server), ['default/pg-host/one:1', 'default/pg-host/three:0']);
  assert.deepEqual(sqliteEvents(root), ['default/pg-host/two']);
});
