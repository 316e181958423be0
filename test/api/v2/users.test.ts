// Local users through the v2 API on a real SQLite store: creating, updating, disabling, groups, and who may do which.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import bcryptjs from 'bcryptjs';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { verifyPassword } from '../../../src/auth/passwords.js';
import { v2App } from '../../helpers/v2-api.js';

const USERS = '/api/core/v2/users';
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** The API with an admin and `ursula`, who may do anything to users but holds nothing else. */
async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  const v2 = store.resources;
  v2.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  v2.putUser('ursula', { username: 'ursula', groups: ['user-admins'] });
  v2.putResource('ClusterRole', '', 'user-admin', { metadata: { name: 'user-admin' }, rules: [{ verbs: ['*'], resources: ['users'] }] });
  v2.putResource('ClusterRoleBinding', '', 'user-admin', {
    metadata: { name: 'user-admin' },
    subjects: [{ type: 'Group', name: 'user-admins' }],
    role_ref: { type: 'ClusterRole', name: 'user-admin' },
  });
  const bearer = async (user: string, groups: string[]) => `Bearer ${(await issueTokens(deps, user, groups)).access_token}`;
  const as = (authorization: string) => (method: Method, url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  return { v2, bearer, as, admin: as(await bearer('admin', ['cluster-admins'])), ursula: as(await bearer('ursula', ['user-admins'])) };
}

test('a user is created with a password, shown without it, and refused a second time', async (t) => {
  const { v2, admin } = await v2Api(t);
  assert.equal((await admin('POST', USERS, { username: 'bob', password: 'bob-pass-1', groups: ['dev'] })).statusCode, 201);
  assert.deepEqual((await admin('GET', `${USERS}/bob`)).json(), { username: 'bob', groups: ['dev'], disabled: false });
  assert.equal(await verifyPassword('bob-pass-1', v2.getUser('bob')?.password_hash), true);
  assert.equal((await admin('POST', USERS, { username: 'bob', password: 'bob-pass-1' })).statusCode, 409);
  assert.deepEqual(
    ((await admin('GET', USERS)).json() as { username: string }[]).map((u) => u.username),
    ['admin', 'bob', 'ursula'],
  );
  assert.equal((await admin('GET', `${USERS}/nobody`)).statusCode, 404);
});

test('a body is checked: its name, groups, provider, disabled, and a password or its hash', async (t) => {
  const { admin } = await v2Api(t);
  const message = async (method: Method, url: string, body: object) => (await admin(method, url, body)).json().message as string;
  assert.equal(await message('POST', USERS, { username: 'carl' }), 'a password or its hash (password_hash) is required');
  assert.equal(await message('POST', USERS, { username: 'carl', password: 'short' }), 'password must be at least 8 characters');
  assert.equal(await message('POST', USERS, { password: 'carl-pass-1' }), 'username must not be empty');
  assert.equal(
    await message('PUT', `${USERS}/carl`, { username: 'karl', password: 'carl-pass-1' }),
    'the name of the resource (karl) does not match the name of the URI (carl)',
  );
  assert.equal(await message('PUT', `${USERS}/carl`, { password: 'carl-pass-1', groups: [1] }), 'groups must be a list of strings');
  assert.equal(await message('PUT', `${USERS}/carl`, { password: 'carl-pass-1', provider: 3 }), 'provider must be a string');
  // "false" is not false: it once disabled the user (and ended their sessions).
  assert.equal(await message('PUT', `${USERS}/carl`, { password: 'carl-pass-1', disabled: 'false' }), 'disabled must be a boolean');
  assert.equal(await message('PUT', `${USERS}/carl`, { password: 'carl-pass-1', disabled: 0 }), 'disabled must be a boolean');
  const other = bcryptjs.hashSync('another-pass', 4);
  assert.equal(
    await message('PUT', `${USERS}/carl`, { password: 'carl-pass-1', password_hash: other }),
    'hashed password does not match the cleartext password: send only one of password and password_hash',
  );
});

test('a bcrypt password_hash is stored as given, alone or with the password it hashes', async (t) => {
  const { v2, admin } = await v2Api(t);
  const hash = bcryptjs.hashSync('dana-pass-1', 4);
  assert.equal((await admin('PUT', `${USERS}/dana`, { password_hash: hash })).statusCode, 201);
  assert.equal(v2.getUser('dana')?.password_hash, hash);
  assert.equal((await admin('PUT', `${USERS}/erin`, { password: 'dana-pass-1', password_hash: hash })).statusCode, 201);
});

test('a user of an external provider is created without a password and may not be given one', async (t) => {
  const { v2, admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${USERS}/dir-dan`, { provider: 'ldap' })).statusCode, 201);
  assert.equal(v2.getUser('dir-dan')?.password_hash, undefined);
  assert.match((await admin('PUT', `${USERS}/dir-dan`, { password: 'dan-pass-12' })).json().message, /has no local password/);
});

test('an update answers 200 and keeps the password; one’s own password is changed elsewhere', async (t) => {
  const { v2, admin } = await v2Api(t);
  const hash = bcryptjs.hashSync('bob-pass-1', 4);
  assert.equal((await admin('PUT', `${USERS}/bob`, { password_hash: hash })).statusCode, 201);
  assert.equal((await admin('PUT', `${USERS}/bob`, { groups: ['ops'] })).statusCode, 200);
  assert.deepEqual(v2.getUser('bob'), { username: 'bob', groups: ['ops'], disabled: false, password_hash: hash });
  const own = await admin('PUT', `${USERS}/admin`, { password: 'admin-pass-2' });
  assert.equal(own.json().message, 'to change your own password use PUT /api/core/v2/users/admin/password with the current password');
});

test('nobody grants a group whose bindings give more than they hold, nor changes someone holding more', async (t) => {
  const { admin, ursula } = await v2Api(t);
  assert.equal((await ursula('PUT', `${USERS}/bob`, { password_hash: bcryptjs.hashSync('bob-pass-1', 4), groups: ['plain'] })).statusCode, 201);
  const promote = await ursula('PUT', `${USERS}/bob`, { groups: ['cluster-admins'] });
  assert.equal(promote.statusCode, 403);
  assert.equal((await ursula('DELETE', `${USERS}/admin`)).statusCode, 403);
  assert.equal((await ursula('PUT', `${USERS}/bob`, { provider: 'ldap' })).statusCode, 403);
  assert.equal((await admin('PUT', `${USERS}/bob`, { groups: ['cluster-admins'] })).statusCode, 200);
});

test('DELETE disables a user and ends their sessions; nobody disables themselves', async (t) => {
  const { v2, admin, as, bearer } = await v2Api(t);
  v2.putUser('bob', { username: 'bob', groups: [] });
  const bob = as(await bearer('bob', []));
  assert.equal((await bob('GET', `${USERS}/bob`)).statusCode, 200);
  assert.equal((await admin('DELETE', `${USERS}/bob`)).statusCode, 204);
  assert.equal(v2.getUser('bob')?.disabled, true);
  assert.equal((await bob('GET', `${USERS}/bob`)).statusCode, 401);
  assert.equal((await admin('DELETE', `${USERS}/admin`)).json().message, 'you cannot disable yourself');
  assert.equal((await admin('DELETE', `${USERS}/nobody`)).statusCode, 404);
  const reinstated = await admin('PUT', `${USERS}/bob/reinstate`);
  assert.equal(reinstated.statusCode, 201);
  assert.equal(v2.getUser('bob')?.disabled, false);
});

test('sensuctl’s group changes add one group, remove one, or remove them all', async (t) => {
  const { v2, admin } = await v2Api(t);
  v2.putUser('bob', { username: 'bob', groups: ['dev'] });
  assert.equal((await admin('PUT', `${USERS}/bob/groups/ops`)).statusCode, 201);
  assert.equal((await admin('PUT', `${USERS}/bob/groups/ops`)).statusCode, 201);
  assert.deepEqual(v2.getUser('bob')?.groups, ['dev', 'ops']);
  assert.equal((await admin('DELETE', `${USERS}/bob/groups/dev`)).statusCode, 204);
  assert.deepEqual(v2.getUser('bob')?.groups, ['ops']);
  assert.equal((await admin('DELETE', `${USERS}/bob/groups`)).statusCode, 204);
  assert.deepEqual(v2.getUser('bob')?.groups, []);
  assert.equal((await admin('PUT', `${USERS}/nobody/groups/ops`)).statusCode, 404);
});
