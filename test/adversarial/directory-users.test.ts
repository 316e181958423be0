import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startInstance, getJson, type Instance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { startSlapd, slapdSkipReason, BASE_DN, PEOPLE, ldapServerSpec, type Slapd } from '../servers/slapd.js';
import { hashPassword } from '../../src/auth/passwords.js';

const skip = slapdSkipReason();
const PROVIDERS = '/api/enterprise/authentication/v2/authproviders';
const HOST = { 'conf.d/client.json': { client: { name: 'directory-host', address: '127.0.0.1', subscriptions: [] } } };
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

let slapd: Slapd;
before(async () => {
  if (!skip) slapd = await startSlapd();
});
after(async () => {
  await slapd?.close();
});

/** A running instance over a fresh tree, restartable on the same tree; stopped and removed when the test ends. */
async function restartable(t: { after(fn: () => Promise<void>): void }) {
  const root = makeTree(HOST);
  let instance: Instance = await startInstance(root);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  return {
    root,
    current: () => instance,
    restart: async (between: () => Promise<void>) => {
      assert.equal(await instance.daemon.stop('SIGTERM'), 0);
      await between();
      instance = await startInstance(root);
    },
  };
}

test('LDAP: an external user has no local password, so removal from the directory ends their access', { skip }, async (t) => {
  const run = await restartable(t);
  let v2 = run.current().v2;
  let admin = `Bearer ${await adminToken(v2)}`;
  const configure = async () =>
    assert.equal(
      (
        await call(`${v2}${PROVIDERS}/acme`, 'PUT', admin, {
          Type: 'ldap',
          api_version: 'authentication/v2',
          metadata: { name: 'acme' },
          spec: { username_prefix: 'ldap:', groups_prefix: 'ldap:', servers: [ldapServerSpec(slapd)] },
        })
      ).status,
      201,
    );
  await configure();
  const login = (user: string, password: string) => getJson(`${v2}/auth`, { headers: basic(user, password) });
  const bob = await login('bob', PEOPLE.bob.password);
  assert.equal(bob.status, 200);
  const bobToken = `Bearer ${bob.body.access_token}`;

  // The self-service route refuses him (his password lives in the directory), and so does every other way to set one.
  const attempts: [string, string, string, unknown][] = [
    ['bob himself', bobToken, 'users/ldap:bob/password', { password: PEOPLE.bob.password, new_password: 'local-bob-9' }],
    ['bob, the earlier form', bobToken, 'users/ldap:bob/password', { password: 'local-bob-9' }],
    ['a cluster admin', admin, 'users/ldap:bob/password', { new_password: 'local-bob-9' }],
    ['a cluster admin, by PUT', admin, 'users/ldap:bob', { username: 'ldap:bob', password: 'local-bob-9' }],
  ];
  for (const [who, token, path, body] of attempts) {
    const refused = await call(`${v2}/api/core/v2/${path}`, 'PUT', token, body);
    assert.equal(refused.status, 400, `${who}: ${JSON.stringify(refused.body)}`);
    assert.equal(
      refused.body.message,
      'user "ldap:bob" signs in through the external authentication provider "acme" and has no local password: change it in the provider',
      who,
    );
  }

  // A local password an earlier version let him store never signs him in.
  await run.restart(async () => {
    const db = new Database(join(run.root, 'state', 'checkbridge.db'));
    const row = db.prepare('SELECT data FROM users WHERE name = ?').get('ldap:bob') as { data: string };
    db.prepare('UPDATE users SET data = ? WHERE name = ?').run(
      JSON.stringify({ ...JSON.parse(row.data), password_hash: await hashPassword('local-bob-9') }),
      'ldap:bob',
    );
    db.close();
  });
  v2 = run.current().v2;
  admin = `Bearer ${await adminToken(v2)}`;

  // Removed from the directory: no way in, under either name, with either password.
  await slapd.removePerson('bob');
  for (const [user, password] of [
    ['bob', PEOPLE.bob.password],
    ['ldap:bob', PEOPLE.bob.password],
    ['ldap:bob', 'local-bob-9'],
    ['bob', 'local-bob-9'],
  ]) {
    assert.equal((await login(user!, password!)).status, 401, `${user} / ${password}`);
  }
  assert.equal((await getJson(`${v2}/auth/test`, { headers: basic('ldap:bob', 'local-bob-9') })).status, 401);
  // Others in the directory still sign in.
  assert.equal((await login('alice', PEOPLE.alice.password)).status, 200);
});

test('LDAP: every spelling the directory accepts is one user, and a disabled user stays disabled', { skip }, async (t) => {
  const run = await restartable(t);
  const v2 = run.current().v2;
  const admin = `Bearer ${await adminToken(v2)}`;
  const configure = async (type: string, prefix: string, extra: Record<string, unknown> = {}) =>
    assert.ok(
      [200, 201].includes(
        (
          await call(`${v2}${PROVIDERS}/acme`, 'PUT', admin, {
            Type: type,
            api_version: 'authentication/v2',
            metadata: { name: 'acme' },
            spec: { username_prefix: prefix, groups_prefix: prefix, servers: [ldapServerSpec(slapd, extra)] },
          })
        ).status,
      ),
    );
  const login = (user: string, password: string) => getJson(`${v2}/auth`, { headers: basic(user, password) });
  const directoryUsers = async (prefix: string) =>
    ((await call(`${v2}/api/core/v2/users`, 'GET', admin)).body as { username: string; disabled: boolean }[]).filter((u) => u.username.startsWith(prefix));
  await configure('ldap', 'ldap:');

  // The directory compares names without case or surrounding spaces: each spelling signs in as ldap:alice.
  const spellings = ['alice', 'Alice', 'ALICE', ' alice', 'alice ', ' ALICE '];
  for (const spelling of spellings) {
    const signed = await login(spelling, PEOPLE.alice.password);
    assert.equal(signed.status, 200, JSON.stringify(spelling));
    assert.equal(
      (await call(`${v2}/api/core/v2/users/ldap:alice`, 'GET', `Bearer ${signed.body.access_token}`)).status,
      200,
      `${JSON.stringify(spelling)} is ldap:alice`,
    );
  }
  assert.deepEqual(await directoryUsers('ldap:'), [{ username: 'ldap:alice', groups: ['ldap:dev'], disabled: false }]);

  // Disabled: no spelling brings her back, nor makes a fresh account.
  assert.equal((await call(`${v2}/api/core/v2/users/ldap:alice`, 'DELETE', admin)).status, 204);
  for (const spelling of spellings) assert.equal((await login(spelling, PEOPLE.alice.password)).status, 401, JSON.stringify(spelling));
  assert.deepEqual(await directoryUsers('ldap:'), [{ username: 'ldap:alice', groups: ['ldap:dev'], disabled: true }]);

  // A record an earlier version made under another spelling, disabled there: disabled here too.
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'ldap:Bob', provider: 'acme' })).status, 201);
  assert.equal((await call(`${v2}/api/core/v2/users/ldap:Bob`, 'DELETE', admin)).status, 204);
  assert.equal((await login('bob', PEOPLE.bob.password)).status, 401);
  assert.equal((await call(`${v2}/api/core/v2/users/ldap:bob`, 'GET', admin)).status, 404, 'no fresh account');

  // Active Directory with default_upn_domain: the principal name in any case, or the short name, is one user.
  await configure('ad', 'ad:', { default_upn_domain: 'acme.org', group_search: { base_dn: `ou=groups,${BASE_DN}`, object_class: 'groupOfNames' } });
  for (const spelling of ['carol', 'Carol', 'carol@acme.org', 'CAROL@ACME.ORG '])
    assert.equal((await login(spelling, PEOPLE.carol.password)).status, 200, spelling);
  assert.deepEqual(
    (await directoryUsers('ad:')).map((u) => u.username),
    ['ad:carol'],
  );
  assert.equal((await call(`${v2}/api/core/v2/users/ad:carol`, 'DELETE', admin)).status, 204);
  for (const spelling of ['carol', 'Carol@Acme.Org']) assert.equal((await login(spelling, PEOPLE.carol.password)).status, 401, spelling);
  assert.deepEqual(
    (await directoryUsers('ad:')).map((u) => u.username),
    ['ad:carol'],
  );
});
