import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from '../v2/v2-helpers.js';
import { startSlapd, slapdSkipReason, BASE_DN, BINDER, PEOPLE, ldapServerSpec, type Slapd } from '../../servers/slapd.js';
import { freePort } from '../../helpers/net.js';

const skip = slapdSkipReason();
const BASE = '/api/enterprise/authentication/v2/authproviders';
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

let slapd: Slapd;
before(async () => {
  if (!skip) slapd = await startSlapd();
});
after(async () => {
  await slapd?.close();
});

const provider = (type: string, servers: unknown[], prefixes = { username_prefix: 'ldap:', groups_prefix: 'ldap:' }) => ({
  Type: type,
  api_version: 'authentication/v2',
  metadata: { name: 'acme' },
  spec: { ...prefixes, servers },
});

test(
  'LDAP: login through a real slapd over LDAPS and StartTLS with a client certificate; groups, prefixes, RBAC, refusals, outages, AD principal names',
  { skip },
  async (t) => {
    const { v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'ldap-host', address: '127.0.0.1', subscriptions: [] } } });
    const admin = `Bearer ${await adminToken(v2)}`;
    const configure = async (body: unknown) => assert.ok([200, 201].includes((await call(`${v2}${BASE}/acme`, 'PUT', admin, body)).status));
    const login = (user: string, password: string) => getJson(`${v2}/auth`, { headers: basic(user, password) });

    // Before any provider, a directory user is unknown.
    assert.equal((await login('bob', PEOPLE.bob.password)).status, 401);

    // LDAPS: bob (two groups) logs in; his tokens name him and his groups with the prefixes.
    await configure(provider('ldap', [ldapServerSpec(slapd)]));
    const bob = await login('bob', PEOPLE.bob.password);
    assert.equal(bob.status, 200, JSON.stringify(bob.body));
    const bobRecord = (await call(`${v2}/api/core/v2/users/ldap:bob`, 'GET', admin)).body;
    assert.deepEqual(bobRecord, { username: 'ldap:bob', groups: ['ldap:dev', 'ldap:ops'], disabled: false });
    const bobToken = `Bearer ${bob.body.access_token}`;
    assert.equal((await call(`${v2}/api/core/v2/users/ldap:bob`, 'GET', bobToken)).status, 200, 'reads himself');
    assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'POST', bobToken, { username: 'admin' })).status, 403, 'no role yet');

    // Refusals: wrong password, unknown user, empty password, filter syntax in the name, the local-only /auth/test.
    assert.equal((await login('bob', 'wrong-password')).status, 401);
    assert.equal((await login('mallory', 'anything-1')).status, 401);
    assert.equal((await login('bob', '')).status, 401, 'an empty password is an unauthenticated bind, never a login');
    assert.equal((await login('*', PEOPLE.alice.password)).status, 401);
    assert.equal((await login('alice)(uid=*', PEOPLE.alice.password)).status, 401);
    assert.equal((await getJson(`${v2}/auth/test`, { headers: basic('bob', PEOPLE.bob.password) })).status, 401, '/auth/test checks local users only');

    // An LDAP group bound to cluster-admin grants API keys; keys are not for external users.
    assert.equal(
      (
        await call(`${v2}/api/core/v2/clusterrolebindings/ldap-ops`, 'PUT', admin, {
          subjects: [{ type: 'Group', name: 'ldap:ops' }],
          role_ref: { type: 'ClusterRole', name: 'cluster-admin' },
        })
      ).status,
      201,
    );
    const granted = await call(`${v2}/api/core/v2/apikeys`, 'POST', bobToken, { username: 'admin' });
    assert.equal(granted.status, 201);
    assert.equal((await call(`${v2}${granted.headers.get('location')}`, 'GET', bobToken)).body.metadata.created_by, 'ldap:bob');
    const alice = await login('alice', PEOPLE.alice.password);
    assert.equal(alice.status, 200);
    const aliceToken = `Bearer ${alice.body.access_token}`;
    assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', aliceToken)).status, 403, 'alice is not in ops');
    const refused = await call(`${v2}/api/core/v2/apikeys`, 'POST', bobToken, { username: 'ldap:bob' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /API keys are not supported for users of external authentication providers/);

    // StartTLS on the plain port, with and without the client certificate slapd demands; plain LDAP.
    await configure(provider('ldap', [ldapServerSpec(slapd, { port: slapd.ldapPort, security: 'starttls' })]));
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 200);
    await configure(provider('ldap', [ldapServerSpec(slapd, { port: slapd.ldapPort, security: 'starttls', client_cert_file: '', client_key_file: '' })]));
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 401, 'slapd demands the client certificate');
    await configure(provider('ldap', [ldapServerSpec(slapd, { port: slapd.ldapsPort, trusted_ca_file: '' })]));
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 401, 'an untrusted server certificate is refused');
    await configure(provider('ldap', [ldapServerSpec(slapd, { port: slapd.ldapsPort, trusted_ca_file: '', insecure: true })]));
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 200, 'insecure skips verification');
    await configure(provider('ldap', [ldapServerSpec(slapd, { port: slapd.ldapPort, security: 'insecure' })]));
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 200);

    // Server down: a refusal (401), not an error; up again: logins work. Two servers, the first down: the second answers.
    await configure(provider('ldap', [ldapServerSpec(slapd)]));
    await slapd.stop();
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 401);
    await slapd.start();
    assert.equal((await login('alice', PEOPLE.alice.password)).status, 200);
    const dead = await freePort();
    await configure(provider('ldap', [ldapServerSpec(slapd, { port: dead }), ldapServerSpec(slapd)]));
    assert.equal((await login('bob', PEOPLE.bob.password)).status, 200);
    assert.ok(
      daemon.logs.some((l) => l.msg === 'LDAP authentication failed' && l.server === `127.0.0.1:${dead}`),
      'the dead server is logged',
    );

    // Active Directory: the principal name from default_upn_domain; carol is in no group.
    await configure(
      provider(
        'ad',
        [ldapServerSpec(slapd, { default_upn_domain: 'acme.org', group_search: { base_dn: `ou=groups,${BASE_DN}`, object_class: 'groupOfNames' } })],
        { username_prefix: 'ad:', groups_prefix: '' },
      ),
    );
    assert.equal((await login('carol', PEOPLE.carol.password)).status, 200);
    assert.equal((await login('carol@acme.org', PEOPLE.carol.password)).status, 200);
    assert.deepEqual((await call(`${v2}/api/core/v2/users/ad:carol`, 'GET', admin)).body.groups, []);
    assert.equal((await login('carol@other.org', PEOPLE.carol.password)).status, 401);
    assert.equal((await login('carol', PEOPLE.bob.password)).status, 401);

    // A directory must not take over a local account of the same name.
    assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'ad:bob', password: 'local-bob-1' })).status, 201);
    assert.equal((await login('bob', PEOPLE.bob.password)).status, 401);

    // Deleting the provider ends its users' access: the access token at once, and refresh.
    const carol = (await login('carol', PEOPLE.carol.password)).body;
    assert.equal((await call(`${v2}/api/core/v2/users/ad:carol`, 'GET', `Bearer ${carol.access_token}`)).status, 200);
    assert.equal((await call(`${v2}${BASE}/acme`, 'DELETE', admin)).status, 204);
    assert.equal((await call(`${v2}/api/core/v2/users/ad:carol`, 'GET', `Bearer ${carol.access_token}`)).status, 401);
    assert.equal((await call(`${v2}/auth/token`, 'POST', `Bearer ${carol.access_token}`, { refresh_token: carol.refresh_token })).status, 401);
    assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', bobToken)).status, 401);

    const logs = JSON.stringify(daemon.logs);
    for (const secret of [BINDER.password, PEOPLE.alice.password, PEOPLE.bob.password, PEOPLE.carol.password])
      assert.ok(!logs.includes(secret), 'no password in any log line');
  },
);
