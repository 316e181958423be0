// Directory sign-in against a real OpenLDAP slapd: TLS and StartTLS, groups, names as the directory holds them, refusals, failover.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ldapAuthenticate, foldLoginName } from '../../../src/auth/providers/ldap.js';
import { parseProvider, type LdapSpec, type ProviderType } from '../../../src/auth/providers/provider-spec.js';
import { startSlapd, slapdSkipReason, ldapServerSpec, PEOPLE, type Slapd } from '../../servers/slapd.js';

const skip = slapdSkipReason();
let slapd: Slapd;
before(async () => {
  if (!skip) slapd = await startSlapd();
});
after(async () => {
  await slapd?.close();
});

function specOf(type: ProviderType, servers: Record<string, unknown>[]): LdapSpec {
  const provider = parseProvider({ Type: type, api_version: 'authentication/v2', metadata: { name: 'acme' }, spec: { servers } }, 'acme', null);
  if (typeof provider === 'string') assert.fail(provider);
  return provider.spec as LdapSpec;
}

/** Signs in through `spec`, keeping each server's reason for not accepting. */
async function signIn(spec: LdapSpec, name: string, password: string, type: ProviderType = 'ldap') {
  const failures: [string, string][] = [];
  const user = await ldapAuthenticate(type, spec, name, password, (server, reason) => failures.push([server, reason]));
  return { user, failures };
}

test('names are folded as directories compare them: case, outer and repeated spaces, compatibility forms', () => {
  assert.equal(foldLoginName('  Bob   Smith '), 'bob smith');
  assert.equal(foldLoginName('ＢＯＢ'), 'bob');
  assert.equal(foldLoginName('bob'), foldLoginName('BOB'));
});

test('a user signs in over LDAPS with a client certificate, with their groups sorted', { skip }, async () => {
  const { user, failures } = await signIn(specOf('ldap', [ldapServerSpec(slapd)]), 'bob', PEOPLE.bob.password);
  assert.deepEqual(user, { name: 'bob', groups: ['dev', 'ops'] });
  assert.deepEqual(failures, []);
});

test('over StartTLS too, and a user in no group has none', { skip }, async () => {
  const spec = specOf('ldap', [ldapServerSpec(slapd, { port: slapd.ldapPort, security: 'starttls' })]);
  assert.deepEqual((await signIn(spec, 'carol', PEOPLE.carol.password)).user, { name: 'carol', groups: [] });
});

test('the name is the one the directory holds, whatever spelling was typed', { skip }, async () => {
  assert.deepEqual((await signIn(specOf('ldap', [ldapServerSpec(slapd)]), ' ALICE ', PEOPLE.alice.password)).user, { name: 'alice', groups: ['dev'] });
});

test('a wrong password, an unknown user or a filter in the name is refused with the reason', { skip }, async () => {
  const spec = specOf('ldap', [ldapServerSpec(slapd)]);
  const server = `127.0.0.1:${slapd.ldapsPort}`;
  assert.deepEqual(await signIn(spec, 'bob', 'wrong-password'), { user: null, failures: [[server, 'invalid credentials']] });
  assert.deepEqual(await signIn(spec, 'mallory', 'x'), { user: null, failures: [[server, 'user not found']] });
  assert.deepEqual(await signIn(spec, '*', PEOPLE.bob.password), { user: null, failures: [[server, 'user not found']] });
  assert.deepEqual(await signIn(spec, 'bob)(uid=*', PEOPLE.bob.password), { user: null, failures: [[server, 'user not found']] });
});

test('an empty password or name is never a login, and no server is asked', async () => {
  const spec = specOf('ldap', [{ host: '127.0.0.1', port: 1, security: 'insecure', user_search: { base_dn: 'o=x' }, group_search: { base_dn: 'o=x' } }]);
  assert.deepEqual(await signIn(spec, 'bob', ''), { user: null, failures: [] });
  assert.deepEqual(await signIn(spec, '  ', 'pw'), { user: null, failures: [] });
});

test('a server that cannot be reached passes the login to the next one', { skip }, async () => {
  const dead = 1; // nothing listens on port 1, and no other test can take it meanwhile
  const spec = specOf('ldap', [ldapServerSpec(slapd, { port: dead, security: 'insecure' }), ldapServerSpec(slapd)]);
  const { user, failures } = await signIn(spec, 'alice', PEOPLE.alice.password);
  assert.deepEqual(user, { name: 'alice', groups: ['dev'] });
  assert.equal(failures.length, 1);
  assert.equal(failures[0]![0], `127.0.0.1:${dead}`);
  assert.match(failures[0]![1], /ECONNREFUSED/);
});

test('a server whose certificate is not trusted is a failure, not a login', { skip }, async () => {
  const { trusted_ca_file: _ca, ...untrusted } = ldapServerSpec(slapd);
  const { user, failures } = await signIn(specOf('ldap', [untrusted]), 'bob', PEOPLE.bob.password);
  assert.equal(user, null);
  assert.equal(failures.length, 1);
});

test('Active Directory with a default domain searches the principal name and drops that domain from the name', { skip }, async () => {
  const spec = specOf('ad', [
    ldapServerSpec(slapd, { default_upn_domain: 'acme.org', group_search: { base_dn: 'ou=groups,dc=acme,dc=org', object_class: 'groupOfNames' } }),
  ]);
  assert.deepEqual((await signIn(spec, 'bob', PEOPLE.bob.password, 'ad')).user, { name: 'bob', groups: ['dev', 'ops'] });
  assert.deepEqual((await signIn(spec, 'bob@acme.org', PEOPLE.bob.password, 'ad')).user, { name: 'bob', groups: ['dev', 'ops'] });
});
