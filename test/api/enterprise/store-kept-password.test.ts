// A PostgresConfig read back (its DSN's password REDACTED) and written again keeps the stored password: idempotent
// clients (the Ansible collection's datastore module, dump then create -f) converge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { adminToken, call } from '../v2/v2-helpers.js';
import { postgresFor } from '../../servers/postgres.js';

test('PostgresConfig: the DSN read back with its password REDACTED keeps the stored password; anything else changed needs it again', async (t) => {
  const server = await postgresFor(t, { hba: ['host all all 127.0.0.1/32 scram-sha-256'] });
  if (!server) return;
  await server.query("CREATE ROLE keeper LOGIN PASSWORD 'kept-pw-7'");
  await server.query('CREATE DATABASE kept OWNER keeper');
  const { v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'pg-host', address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const url = `${v2}/api/enterprise/store/v1/provider/kept`;
  const dsn = `postgresql://keeper:kept-pw-7@127.0.0.1:${server.port}/kept`;
  const put = (spec: Record<string, unknown>) => call(url, 'PUT', auth, { type: 'PostgresConfig', api_version: 'store/v1', metadata: { name: 'kept' }, spec });
  // Strict: stored only after connecting with the DSN as resolved, so a lost password is a 400.
  assert.equal((await put({ dsn, pool_size: 2, strict: true })).status, 201);
  const served = (await call(url, 'GET', auth)).body as { spec: { dsn: string } };
  assert.equal(served.spec.dsn, dsn.replace('kept-pw-7', 'REDACTED'));

  // Written back as read: no change, nothing reconnects (no new "stored" line).
  const stored = () => daemon.logs.filter((l) => l.msg === 'PostgresConfig stored').length;
  const before = stored();
  assert.equal((await put(served.spec)).status, 201);
  assert.equal(stored(), before, 'a write of what is stored changes nothing');

  // Another field changed, the password as served: the stored one is used, and connects.
  const changed = await put({ ...served.spec, pool_size: 3 });
  assert.equal(changed.status, 201, JSON.stringify(changed.body));
  assert.equal((await call(url, 'GET', auth)).body.spec.pool_size, 3);
  assert.deepEqual((await getJson(`${v2}/health`)).body.PostgresHealth, [{ Name: 'kept', Active: true, Healthy: true }]);

  // REDACTED towards another server or user: the stored password must not follow it.
  const moved = await put({ ...served.spec, dsn: served.spec.dsn.replace('keeper:', 'other:') });
  assert.equal(moved.status, 400);
  assert.match(moved.body.message, /spec\.dsn has the password REDACTED.*the rest of the DSN changed: give the password/);
  const fresh = await call(`${v2}/api/enterprise/store/v1/provider/fresh`, 'PUT', auth, {
    type: 'PostgresConfig',
    api_version: 'store/v1',
    metadata: { name: 'fresh' },
    spec: { dsn: served.spec.dsn },
  });
  assert.equal(fresh.status, 400);
  assert.match(fresh.body.message, /none is stored/);
});
