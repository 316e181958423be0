// A REDACTED credential followed a changed trust anchor. Swapping an LDAP server's
// trusted_ca_file (or client cert and key), or a vault's tls.ca_cert or tls.cname, lets whoever controls the new CA
// (or name) receive the stored bind password or token: these count as a changed target too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const PROVIDERS = '/api/enterprise/authentication/v2/authproviders';
const SECRETS = '/api/enterprise/secrets/v1/providers';

const ldap = (server: Record<string, unknown>, password: string) => ({
  Type: 'ldap',
  api_version: 'authentication/v2',
  metadata: { name: 'corp' },
  spec: {
    servers: [
      {
        host: 'ldap.corp.example',
        port: 636,
        security: 'tls',
        binding: { user_dn: 'cn=binder,dc=corp', password },
        group_search: { base_dn: 'dc=corp' },
        user_search: { base_dn: 'dc=corp' },
        ...server,
      },
    ],
  },
});
const vault = (tls: Record<string, string>, token: string) => ({
  type: 'ExternalProvider',
  api_version: 'secrets/v1',
  metadata: { name: 'vault' },
  spec: { client: { address: 'https://vault.example:8200', token, version: 'v2', tls } },
});

test('a REDACTED credential is refused (400 naming the field) when its trust anchor changes: LDAP CA file or client cert, vault CA or cname', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'trust-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;

  const trusted = { trusted_ca_file: '/etc/corp/ca.pem', client_cert_file: '/etc/corp/client.pem', client_key_file: '/etc/corp/client.key' };
  assert.equal((await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap(trusted, 'bind-secret'))).status, 201);
  const ldapMoves: [Record<string, unknown>, string][] = [
    [{ ...trusted, trusted_ca_file: '/tmp/attacker-ca.pem' }, 'trusted_ca_file'],
    [{ ...trusted, trusted_ca_file: '' }, 'trusted_ca_file'],
    [{ ...trusted, client_cert_file: '/tmp/other.pem' }, 'client_cert_file'],
    [{ ...trusted, client_key_file: '/tmp/other.key' }, 'client_key_file'],
  ];
  for (const [server, field] of ldapMoves) {
    const reply = await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap(server, 'REDACTED'));
    assert.equal(reply.status, 400, `${field}: ${JSON.stringify(reply.body)}`);
    assert.match(
      reply.body.message,
      new RegExp(
        `^spec\\.servers\\[0\\]\\.binding\\.password is REDACTED but spec\\.servers\\[0\\]\\.${field} changed \\(from "[^"]*" to "[^"]*"\\): give the bind password for the new target$`,
      ),
    );
  }
  assert.equal(
    (await call(`${v2}${PROVIDERS}/corp`, 'GET', admin)).body.spec.servers[0].trusted_ca_file,
    '/etc/corp/ca.pem',
    'the refused updates changed nothing',
  );
  assert.equal((await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap(trusted, 'REDACTED'))).status, 200, 'the same trust keeps the stored password');
  assert.equal(
    (await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap({ ...trusted, trusted_ca_file: '/etc/corp/new-ca.pem' }, 'new-bind-secret'))).status,
    200,
    'a new password goes with a new CA',
  );

  const tls = { ca_cert: '/etc/vault/ca.pem', cname: 'vault.example' };
  assert.equal((await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault(tls, 'vault-token'))).status, 201);
  const vaultMoves: [Record<string, string>, string][] = [
    [{ ...tls, ca_cert: '/tmp/attacker-ca.pem' }, 'ca_cert'],
    [{ cname: 'vault.example' }, 'ca_cert'],
    [{ ...tls, cname: 'attacker.example' }, 'cname'],
  ];
  for (const [changed, field] of vaultMoves) {
    const reply = await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault(changed, 'REDACTED'));
    assert.equal(reply.status, 400, `${field}: ${JSON.stringify(reply.body)}`);
    assert.match(reply.body.message, new RegExp(`^spec\\.client\\.token is REDACTED but spec\\.client\\.tls\\.${field} changed`));
  }
  assert.deepEqual((await call(`${v2}${SECRETS}/vault`, 'GET', admin)).body.spec.client.tls, tls, 'the refused updates changed nothing');
  assert.equal((await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault(tls, 'REDACTED'))).status, 201, 'the same trust keeps the stored token');
  assert.equal(
    (await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault({ ...tls, cname: 'vault2.example' }, 'new-token'))).status,
    201,
    'a new token goes with a new name',
  );
});
