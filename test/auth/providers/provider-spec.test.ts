// Authentication providers as a PUT body describes them: checks naming the field, defaults, kept secrets, and the masked view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseProvider, providerView, type Provider, type LdapSpec, type OidcSpec } from '../../../src/auth/providers/provider-spec.js';

const ldapBody = (server: Record<string, unknown> = {}, type = 'ldap') => ({
  Type: type,
  api_version: 'authentication/v2',
  metadata: { name: 'acme' },
  spec: {
    servers: [
      {
        host: 'ldap.acme.org',
        binding: { user_dn: 'cn=binder', password: 'bind-pw' },
        user_search: { base_dn: 'ou=people' },
        group_search: { base_dn: 'ou=groups' },
        ...server,
      },
    ],
  },
});
const oidcBody = (spec: Record<string, unknown> = {}) => ({
  Type: 'oidc',
  api_version: 'authentication/v2',
  metadata: { name: 'sso' },
  spec: { client_id: 'checkbridge', client_secret: 'client-pw', server: 'https://idp.acme.org', username_claim: 'email', ...spec },
});
const parsed = (body: unknown, name: string, previous: Provider | null = null): Provider => {
  const result = parseProvider(body, name, previous);
  if (typeof result === 'string') assert.fail(result);
  return result;
};
const problem = (body: unknown, name = 'acme', previous: Provider | null = null) => parseProvider(body, name, previous) as string;

test('an LDAP server gets LDAPS on 636 and OpenLDAP’s search defaults; StartTLS defaults to 389', () => {
  const provider = parsed(ldapBody(), 'acme');
  assert.equal(provider.type, 'ldap');
  assert.deepEqual(provider.metadata, { name: 'acme' });
  const server = (provider.spec as LdapSpec).servers[0]!;
  assert.deepEqual(server, {
    host: 'ldap.acme.org',
    port: 636,
    insecure: false,
    security: 'tls',
    binding: { user_dn: 'cn=binder', password: 'bind-pw' },
    client_cert_file: '',
    client_key_file: '',
    trusted_ca_file: '',
    default_upn_domain: '',
    group_search: { base_dn: 'ou=groups', attribute: 'member', name_attribute: 'cn', object_class: 'groupOfNames' },
    user_search: { base_dn: 'ou=people', attribute: 'uid', name_attribute: 'cn', object_class: 'person' },
  });
  assert.equal((parsed(ldapBody({ security: 'starttls' }), 'acme').spec as LdapSpec).servers[0]!.port, 389);
});

test('Active Directory gets its own search defaults, and the type is read case-blind', () => {
  const server = (parsed(ldapBody({}, 'AD'), 'acme').spec as LdapSpec).servers[0]!;
  assert.equal(server.user_search.attribute, 'sAMAccountName');
  assert.equal(server.user_search.name_attribute, 'displayName');
  assert.equal(server.group_search.object_class, 'group');
});

test('the envelope is checked: type, API version, name, namespace and spec', () => {
  const { Type: _type, ...untyped } = ldapBody();
  assert.equal(problem(untyped), 'Type is required');
  assert.equal(problem({ ...ldapBody(), Type: 'kerberos' }), 'Type must be one of ldap, ad, oidc');
  assert.equal(problem({ ...ldapBody(), api_version: 'core/v2' }), 'api_version must be authentication/v2');
  assert.equal(problem(ldapBody(), 'other'), 'the name of the resource (acme) does not match the name of the URI (other)');
  assert.equal(
    problem({ ...ldapBody(), metadata: { name: 'acme', namespace: 'default' } }),
    'authentication providers are cluster-wide: metadata.namespace must be empty',
  );
  assert.equal(problem({ ...ldapBody(), spec: null }), 'spec is required');
  assert.equal(problem('text'), 'body must be an object');
});

test('each LDAP server field is checked by name', () => {
  assert.equal(problem({ ...ldapBody(), spec: { servers: [] } }), 'spec.servers must be a non-empty array');
  assert.equal(problem(ldapBody({ security: 'none' })), 'spec.servers[0].security must be one of tls, starttls, insecure');
  assert.equal(problem(ldapBody({ port: 70000 })), 'spec.servers[0].port must be an integer from 1 to 65535');
  assert.equal(problem(ldapBody({ host: '' })), 'spec.servers[0].host is required');
  assert.equal(problem(ldapBody({ insecure: 'yes' })), 'spec.servers[0].insecure must be a boolean');
  assert.equal(problem(ldapBody({ client_cert_file: '/c.pem' })), 'spec.servers[0].client_cert_file and client_key_file go together');
  assert.equal(problem(ldapBody({ user_search: {} })), 'spec.servers[0].user_search.base_dn is required');
  assert.equal(problem(ldapBody({ binding: 'cn=x' })), 'spec.servers[0].binding must be an object');
});

test('a masked bind password keeps the stored one for the same server only', () => {
  const stored = parsed(ldapBody(), 'acme');
  const masked = { binding: { user_dn: 'cn=binder', password: 'REDACTED' } };
  assert.equal((parsed(ldapBody(masked), 'acme', stored).spec as LdapSpec).servers[0]!.binding.password, 'bind-pw');
  assert.equal(
    (parsed(ldapBody({ ...masked, host: 'LDAP.acme.org' }), 'acme', stored).spec as LdapSpec).servers[0]!.binding.password,
    'bind-pw',
    'a host differing in case is the same',
  );
  assert.equal(
    problem(ldapBody({ ...masked, host: 'evil.example' }), 'acme', stored),
    'spec.servers[0].binding.password is REDACTED but spec.servers[0].host changed (from "ldap.acme.org" to "evil.example"): give the bind password for the new target',
  );
  assert.match(problem(ldapBody(masked)), /^spec\.servers\[0\]\.binding\.password is REDACTED, as reads show it, but none is stored/);
});

test('an OIDC provider needs its client, a server URL and a username claim; a masked secret stays with its server', () => {
  const provider = parsed(oidcBody({ additional_scopes: ['groups'] }), 'sso');
  assert.deepEqual(provider.spec, {
    additional_scopes: ['groups'],
    client_id: 'checkbridge',
    client_secret: 'client-pw',
    disable_offline_access: false,
    groups_claim: '',
    groups_prefix: '',
    redirect_uri: '',
    server: 'https://idp.acme.org',
    username_claim: 'email',
    username_prefix: '',
  } satisfies OidcSpec);
  assert.equal(problem(oidcBody({ server: 'ftp://idp' }), 'sso'), 'spec.server must be an http or https URL');
  assert.equal(problem(oidcBody({ server: 'https://' }), 'sso'), 'spec.server is not a valid URL');
  assert.equal(problem(oidcBody({ redirect_uri: 'idp/callback' }), 'sso'), 'spec.redirect_uri must be an http or https URL');
  assert.equal(problem(oidcBody({ username_claim: '' }), 'sso'), 'spec.username_claim is required');
  assert.equal(problem(oidcBody({ additional_scopes: [''] }), 'sso'), 'spec.additional_scopes must be a list of strings');
  assert.equal((parsed(oidcBody({ client_secret: 'REDACTED' }), 'sso', provider).spec as OidcSpec).client_secret, 'client-pw');
  assert.match(problem(oidcBody({ client_secret: 'REDACTED', server: 'https://other.example' }), 'sso', provider), /spec\.server changed/);
  // A stored LDAP provider of that name keeps nothing for an OIDC one.
  assert.match(problem(oidcBody({ client_secret: 'REDACTED' }), 'sso', parsed(ldapBody(), 'acme')), /none is stored/);
});

test('every view masks secrets; an empty one stays empty', () => {
  const ldap = providerView(parsed(ldapBody(), 'acme'));
  assert.equal((ldap.spec as LdapSpec).servers[0]!.binding.password, 'REDACTED');
  assert.equal((ldap.spec as LdapSpec).servers[0]!.binding.user_dn, 'cn=binder');
  const anonymous = providerView(parsed(ldapBody({ binding: {} }), 'acme'));
  assert.equal((anonymous.spec as LdapSpec).servers[0]!.binding.password, '');
  assert.equal((providerView(parsed(oidcBody(), 'sso')).spec as OidcSpec).client_secret, 'REDACTED');
});
