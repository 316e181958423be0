import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { instanceFor, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

// A REDACTED credential sent back keeps the stored one only while it goes where it went.
const PROVIDERS = '/api/enterprise/authentication/v2/authproviders';
const SECRETS = '/api/enterprise/secrets/v1/providers';
const BIND_SECRET = 'bind-secret-kept-9Fq';
const OIDC_SECRET = 'oidc-secret-kept-4Lw';
const VAULT_TOKEN = 'vault-token-kept-7Xe';

/** A TCP listener that keeps every byte sent to it: a stand-in for a host an attacker re-points a provider to. */
async function capture(): Promise<{ port: number; received: () => string; close: () => Promise<void> }> {
  const chunks: Buffer[] = [];
  const server: Server = createServer((socket) => {
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received: () => Buffer.concat(chunks).toString('latin1'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const ldap = (server: Record<string, unknown>, password: string) => ({
  Type: 'ldap',
  api_version: 'authentication/v2',
  metadata: { name: 'corp' },
  spec: {
    servers: [
      {
        host: '127.0.0.1',
        port: 1,
        security: 'insecure',
        binding: { user_dn: 'cn=binder,dc=corp', password },
        group_search: { base_dn: 'dc=corp' },
        user_search: { base_dn: 'dc=corp' },
        ...server,
      },
    ],
  },
});
const oidc = (server: string, secret: string) => ({
  Type: 'oidc',
  api_version: 'authentication/v2',
  metadata: { name: 'sso' },
  spec: { server, client_id: 'checkbridge', client_secret: secret, username_claim: 'email' },
});
const vault = (address: string, token: string) => ({
  type: 'ExternalProvider',
  api_version: 'secrets/v1',
  metadata: { name: 'vault' },
  spec: { client: { address, token, version: 'v2' } },
});

test('a REDACTED credential is refused (400 naming the field) when its LDAP server, OIDC server or vault address changes', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'targets-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const elsewhere = await capture();
  t.after(() => elsewhere.close());

  // LDAP: host, port, security and insecure each move the bind credentials somewhere else.
  assert.equal((await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap({}, BIND_SECRET))).status, 201);
  const moves: [Record<string, unknown>, string][] = [
    [{ port: elsewhere.port }, 'port'],
    [{ host: 'ldap.elsewhere.example' }, 'host'],
    [{ security: 'starttls' }, 'security'],
    [{ security: 'insecure', insecure: true }, 'insecure'],
  ];
  for (const [change, field] of moves) {
    const reply = await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap(change, 'REDACTED'));
    assert.equal(reply.status, 400, `${field}: ${JSON.stringify(reply.body)}`);
    assert.match(reply.body.message, new RegExp(`spec\\.servers\\[0\\]\\.binding\\.password is REDACTED but spec\\.servers\\[0\\]\\.${field} changed`));
  }
  const kept = (await call(`${v2}${PROVIDERS}/corp`, 'GET', admin)).body.spec.servers[0];
  assert.deepEqual([kept.host, kept.port], ['127.0.0.1', 1], 'the refused updates changed nothing');
  // A sign-in now tries the stored server only: nothing reaches the host it was to be re-pointed to.
  await getJson(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from('someone:their-password').toString('base64') } });
  assert.equal(elsewhere.received().includes(BIND_SECRET), false, 'the stored bind password reached the new host');
  // Unchanged target: REDACTED keeps the stored password (dump, then create -f); a new password may go anywhere.
  assert.equal((await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap({ user_search: { base_dn: 'ou=people,dc=corp' } }, 'REDACTED'))).status, 200);
  assert.equal((await call(`${v2}${PROVIDERS}/corp`, 'PUT', admin, ldap({ port: elsewhere.port }, 'a-new-bind-password'))).status, 200);

  // OIDC: the client secret goes to `server`.
  assert.equal((await call(`${v2}${PROVIDERS}/sso`, 'PUT', admin, oidc('https://idp.example', OIDC_SECRET))).status, 201);
  const moved = await call(`${v2}${PROVIDERS}/sso`, 'PUT', admin, oidc('https://idp.attacker.example', 'REDACTED'));
  assert.equal(moved.status, 400, JSON.stringify(moved.body));
  assert.match(moved.body.message, /spec\.client_secret is REDACTED but spec\.server changed/);
  assert.equal((await call(`${v2}${PROVIDERS}/sso`, 'GET', admin)).body.spec.server, 'https://idp.example');
  assert.equal((await call(`${v2}${PROVIDERS}/sso`, 'PUT', admin, oidc('https://idp.example', 'REDACTED'))).status, 200);
  assert.equal((await call(`${v2}${PROVIDERS}/sso`, 'PUT', admin, oidc('https://idp.attacker.example', 'another-secret'))).status, 200);

  // Vault: the token goes to `address`.
  assert.equal((await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault('https://vault.example:8200', VAULT_TOKEN))).status, 201);
  const repointed = await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault(`https://127.0.0.1:${elsewhere.port}`, 'REDACTED'));
  assert.equal(repointed.status, 400, JSON.stringify(repointed.body));
  assert.match(repointed.body.message, /spec\.client\.token is REDACTED but spec\.client\.address changed/);
  assert.equal((await call(`${v2}${SECRETS}/vault`, 'GET', admin)).body.spec.client.address, 'https://vault.example:8200');
  assert.equal(
    (await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault('https://vault.example:8200/', 'REDACTED'))).status,
    201,
    'the same address (a trailing slash) keeps the token',
  );
  assert.equal((await call(`${v2}${SECRETS}/vault`, 'PUT', admin, vault(`https://127.0.0.1:${elsewhere.port}`, 'a-new-token'))).status, 201);
});
