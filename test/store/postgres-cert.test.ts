// Certificate authentication: PG* variables read at start; PostgreSQL accepts the user with a client certificate only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { postgresFor } from '../servers/postgres.js';
import { makeCa, opensslMissing } from '../servers/openssl-ca.js';

test('a client certificate from PGSSLCERT/PGSSLKEY/PGSSLROOTCERT with verify-full: unused until a restart loads the variables', async (t) => {
  const missing = opensslMissing();
  if (missing) {
    if (process.env.CI === 'true') throw new Error(missing);
    return t.skip(missing);
  }
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'cert-host', address: '127.0.0.1', subscriptions: [] } } });
  t.after(() => removeTree(root));
  const caDir = makeTree({});
  t.after(() => removeTree(caDir));
  const ca = makeCa(caDir);
  const serverCert = ca.issue('localhost', ['IP:127.0.0.1']);
  const clientCert = ca.issue('certuser', []);
  const server = await postgresFor(t, {
    ssl: { cert: serverCert.cert, key: serverCert.key, ca: ca.ca },
    hba: ['hostssl all certuser 127.0.0.1/32 cert', 'hostssl all certuser ::1/128 cert'],
  });
  if (!server) return;
  await server.query('CREATE ROLE certuser LOGIN');
  await server.query('CREATE DATABASE cb OWNER certuser');
  const dsn = `host=localhost port=${server.port} dbname=cb`;

  // Started without the variables: the store is configured but cannot be used.
  const first = await startInstance(root);
  try {
    const auth = `Bearer ${await adminToken(first.v2)}`;
    assert.equal(
      (
        await call(`${first.v2}/api/enterprise/store/v1/provider/certs`, 'PUT', auth, {
          type: 'PostgresConfig',
          api_version: 'store/v1',
          metadata: { name: 'certs' },
          spec: { dsn, strict: false },
        })
      ).status,
      201,
    );
    assert.deepEqual((await getJson(`${first.v2}/health`)).body.PostgresHealth, [{ Name: 'certs', Active: false, Healthy: false }]);
    assert.equal(await tcpExchange(first.socket, '{"name":"early","output":"a","status":1}'), 'ok');
  } finally {
    await first.daemon.stop('SIGTERM');
  }

  // After a restart with the variables: connected with the client certificate alone (no password anywhere).
  const env = { PGUSER: 'certuser', PGSSLMODE: 'verify-full', PGSSLCERT: clientCert.cert, PGSSLKEY: clientCert.key, PGSSLROOTCERT: ca.ca };
  const second = await startInstance(root, [], env);
  t.after(() => second.daemon.stop('SIGKILL').then(() => undefined));
  const health = await eventually(
    () => getJson(`${second.v2}/health`),
    (r) => r.body.PostgresHealth?.[0]?.Healthy === true,
  );
  assert.deepEqual(health.body.PostgresHealth, [{ Name: 'certs', Active: true, Healthy: true }]);
  assert.equal(await tcpExchange(second.socket, '{"name":"late","output":"b","status":2}'), 'ok');
  const rows = await server.query('SELECT sensu_entity, sensu_check FROM events', 'cb');
  assert.deepEqual(rows.rows, [{ sensu_entity: 'cert-host', sensu_check: 'late' }]);
  const ssl = await server.query(
    "SELECT count(*)::int AS n FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.usename = 'certuser' AND s.ssl AND s.client_dn = '/CN=certuser'",
  );
  assert.ok(ssl.rows[0].n >= 1, 'the connection is TLS with the client certificate');
});
