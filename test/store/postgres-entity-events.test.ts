// Deleting an entity deletes its events when they live in PostgreSQL, as in the embedded store and in Sensu Go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { postgresFor } from '../servers/postgres.js';

const CLIENT = { 'conf.d/client.json': { client: { name: 'pg-entity-host', address: '127.0.0.1', subscriptions: [] } } };

test('PostgreSQL event store: DELETE of an entity deletes its events there, and only its own', async (t) => {
  const server = await postgresFor(t);
  if (!server) return;
  await server.query('CREATE ROLE writer LOGIN');
  await server.query('CREATE DATABASE cb OWNER writer');
  const { v2, daemon } = await instanceFor(t, CLIENT);
  const auth = `Bearer ${await adminToken(v2)}`;
  const dsn = `host=127.0.0.1 port=${server.port} user=writer dbname=cb`;
  const config = { type: 'PostgresConfig', api_version: 'store/v1', metadata: { name: 'main' }, spec: { dsn, pool_size: 2, strict: true } };
  assert.equal((await call(`${v2}/api/enterprise/store/v1/provider/main`, 'PUT', auth, config)).status, 201);
  await daemon.waitFor((l) => l.msg === 'switched event store to postgres' && l.postgres === 'main');

  const ns = `${v2}/api/core/v2/namespaces/default`;
  const event = (entity: string, check: string) => ({
    entity: { metadata: { name: entity }, entity_class: 'proxy' },
    check: { metadata: { name: check }, status: 1, interval: 60 },
  });
  for (const [entity, check] of [
    ['e1', 'k1'],
    ['e1', 'k2'],
    ['e2', 'k1'],
  ])
    assert.equal((await call(`${ns}/events/${entity}/${check}`, 'PUT', auth, event(entity, check))).status, 201);
  const rows = async () =>
    (await server.query('SELECT sensu_entity, sensu_check FROM events ORDER BY sensu_entity, sensu_check', 'cb')).rows.map(
      (r) => `${r.sensu_entity}/${r.sensu_check}`,
    );
  assert.deepEqual(await rows(), ['e1/k1', 'e1/k2', 'e2/k1']);
  assert.equal((await call(`${ns}/entities/e1`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${ns}/events/e1/k1`, 'GET', auth)).status, 404);
  assert.deepEqual(await rows(), ['e2/k1']);
});
