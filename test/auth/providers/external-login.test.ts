// Users of external providers recorded in a real SQLite store: who is active, whose login is refused, and directory logins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isExternal, isActive, recordExternalUser, directoryLogin } from '../../../src/auth/providers/external-login.js';
import { putProvider, deleteProvider } from '../../../src/auth/providers/store.js';
import { parseProvider, type Provider } from '../../../src/auth/providers/provider-spec.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';

function ldapProvider(port = 389, prefixes = { username_prefix: 'ldap:', groups_prefix: 'ldap-' }): Provider {
  const provider = parseProvider(
    {
      Type: 'ldap',
      api_version: 'authentication/v2',
      metadata: { name: 'acme' },
      spec: {
        ...prefixes,
        servers: [{ host: '127.0.0.1', port, security: 'insecure', user_search: { base_dn: 'ou=people' }, group_search: { base_dn: 'ou=groups' } }],
      },
    },
    'acme',
    null,
  );
  if (typeof provider === 'string') assert.fail(provider);
  return provider;
}

test('a user is external when a provider other than basic is named', () => {
  assert.equal(isExternal({ provider: 'acme' }), true);
  assert.equal(isExternal({ provider: 'basic' }), false);
  assert.equal(isExternal({ provider: '' }), false);
  assert.equal(isExternal({}), false);
});

test('a user is active unless disabled, or, for an external one, unless their provider is gone', (t) => {
  const v2 = sqliteStore(t).resources;
  putProvider(v2, ldapProvider());
  assert.equal(isActive(v2, { username: 'local' }), true);
  assert.equal(isActive(v2, { username: 'local', disabled: true }), false);
  assert.equal(isActive(v2, null), false);
  assert.equal(isActive(v2, { username: 'ldap:bob', provider: 'acme' }), true);
  deleteProvider(v2, 'acme');
  assert.equal(isActive(v2, { username: 'ldap:bob', provider: 'acme' }), false);
});

test('a directory user is recorded with the provider’s prefixes, with no password', (t) => {
  const v2 = sqliteStore(t).resources;
  const user = recordExternalUser(v2, capturedLogger().logger, ldapProvider(), 'bob', ['dev', 'ops']);
  const expected = { username: 'ldap:bob', groups: ['ldap-dev', 'ldap-ops'], disabled: false, provider: 'acme', provider_type: 'ldap' };
  assert.deepEqual(user, expected);
  assert.deepEqual(v2.getUser('ldap:bob'), expected);
});

test('a directory never takes over a local user of that name', (t) => {
  const v2 = sqliteStore(t).resources;
  const { logger, lines } = capturedLogger();
  v2.putUser('bob', { username: 'bob', groups: ['cluster-admins'], password_hash: 'x' });
  assert.equal(recordExternalUser(v2, logger, ldapProvider(389, { username_prefix: '', groups_prefix: '' }), 'bob', []), null);
  assert.deepEqual(v2.getUser('bob')!.groups, ['cluster-admins']);
  assert.ok(lines.some((l) => l.msg === 'external login refused: a local user has that name' && l.user === 'bob'));
});

test('a disabled directory user stays disabled, under any spelling the directory takes for the name', (t) => {
  const v2 = sqliteStore(t).resources;
  const { logger, lines } = capturedLogger();
  v2.putUser('ldap:bob', { username: 'ldap:bob', groups: [], disabled: true, provider: 'acme' });
  assert.equal(recordExternalUser(v2, logger, ldapProvider(), 'bob', ['dev']), null);
  assert.equal(recordExternalUser(v2, logger, ldapProvider(), ' BOB', ['dev']), null);
  assert.equal(v2.getUser('ldap: BOB'), null);
  assert.ok(lines.some((l) => l.msg === 'external login refused: the user is disabled under another spelling of the name' && l.disabled === 'ldap:bob'));
  assert.notEqual(recordExternalUser(v2, logger, ldapProvider(), 'carol', []), null, 'another name is recorded');
});

test('a directory login with no provider, or with one whose server cannot be reached, finds nobody and says why', async (t) => {
  const v2 = sqliteStore(t).resources;
  const { logger, lines } = capturedLogger();
  assert.equal(await directoryLogin(v2, logger, 'bob', 'pw'), null);
  putProvider(v2, ldapProvider(1));
  assert.equal(await directoryLogin(v2, logger, 'bob', 'pw'), null);
  const failure = lines.find((l) => l.msg === 'LDAP authentication failed');
  assert.equal(failure?.provider, 'acme');
  assert.equal(failure?.user, 'bob');
  assert.match(String(failure?.server), /^127\.0\.0\.1:\d+$/);
  assert.equal(v2.getUser('ldap:bob'), null);
});
