// Password changes and resets through the v2 API on a real SQLite store, and the rules for what a new password may be.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import bcryptjs from 'bcryptjs';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { passwordProblem, externalMessage, storedHashOf } from '../../../src/api/v2/password-change.js';
import { hashPassword, verifyPassword } from '../../../src/auth/passwords.js';
import { v2App } from '../../helpers/v2-api.js';

const USERS = '/api/core/v2/users';
const ALICE_PASSWORD = 'alice-pass-1';
// Hashed once for the file: each scrypt hash takes a pool worker a good part of a second on a loaded machine.
let aliceHash: Promise<string> | undefined;

async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  store.resources.putUser('alice', { username: 'alice', groups: [], password_hash: await (aliceHash ??= hashPassword(ALICE_PASSWORD)) });
  store.resources.putUser('dir-dan', { username: 'dir-dan', groups: [], provider: 'acme-ldap' });
  const bearer = async (user: string, groups: string[]) => `Bearer ${(await issueTokens(deps, user, groups)).access_token}`;
  const as = (authorization: string) => (url: string, payload?: object) =>
    app.inject({ method: 'PUT', url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const passwordOf = (name: string) => store.resources.getUser(name)?.password_hash as string;
  return { app, store, bearer, as, passwordOf, admin: as(await bearer('admin', ['cluster-admins'])) };
}

test('a new password has at least 8 characters; a bcrypt hash is kept as given, within the cost bounds', async () => {
  assert.equal(passwordProblem('seven-c'), 'password must be at least 8 characters');
  assert.equal(passwordProblem(12345678), 'password must be at least 8 characters');
  assert.equal(passwordProblem('eight-ch'), null);
  const bcrypt = bcryptjs.hashSync('new-password', 4);
  assert.deepEqual(await storedHashOf({ bcrypt }), { hash: bcrypt });
  assert.match(String(((await storedHashOf({ bcrypt: 'not-a-hash' })) as { problem: string }).problem), /^password_hash must be a bcrypt hash/);
  assert.deepEqual(await storedHashOf({ plain: 'short' }), { problem: 'password must be at least 8 characters' });
  const plain = (await storedHashOf({ plain: 'long-enough-1' })) as { hash: string };
  assert.match(plain.hash, /^scrypt\$/);
  assert.equal(await verifyPassword('long-enough-1', plain.hash), true);
  assert.match(externalMessage('dan', 'acme'), /^user "dan" signs in through the external authentication provider "acme" and has no local password/);
});

test('a user changes their own password with the current one; their sessions end', async (t) => {
  const { bearer, as, passwordOf } = await v2Api(t);
  const token = await bearer('alice', []);
  const alice = as(token);
  const wrong = await alice(`${USERS}/alice/password`, { password: 'not-it-at-all', new_password: 'alice-pass-2' });
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.json().message, 'the current password is wrong');
  const missing = await alice(`${USERS}/alice/password`, { new_password: 'alice-pass-2' });
  assert.match(missing.json().message, /^password \(the current password\) is required/);
  assert.equal((await alice(`${USERS}/alice/password`, { password: ALICE_PASSWORD, new_password: 'alice-pass-2' })).statusCode, 201);
  assert.equal(await verifyPassword('alice-pass-2', passwordOf('alice')), true);
  assert.equal((await alice(`${USERS}/alice/password`, { password: 'alice-pass-2', new_password: 'alice-pass-3' })).statusCode, 401, 'the session ended');
});

test('sensuctl’s form sends the new password as a bcrypt hash, stored as given', async (t) => {
  const { bearer, as, passwordOf } = await v2Api(t);
  const alice = as(await bearer('alice', []));
  const hash = bcryptjs.hashSync('alice-pass-2', 4);
  assert.equal((await alice(`${USERS}/alice/password`, { password: ALICE_PASSWORD, password_hash: hash })).statusCode, 201);
  assert.equal(passwordOf('alice'), hash);
});

test('the body must be an object naming the new password; a short one is refused', async (t) => {
  const { app, bearer, as } = await v2Api(t);
  const token = await bearer('alice', []);
  const alice = as(token);
  const array = await app.inject({
    method: 'PUT',
    url: `${USERS}/alice/password`,
    headers: { authorization: token, 'content-type': 'application/json' },
    payload: '[]',
  });
  assert.match(array.json().message, /^request body must be a JSON object: send \{"password"/);
  assert.match((await alice(`${USERS}/alice/password`, { password: ALICE_PASSWORD })).json().message, /^new_password is required/);
  assert.equal((await alice(`${USERS}/alice/password`, { password: 7 })).json().message, 'password (the current password) must be a string');
  assert.equal(
    (await alice(`${USERS}/alice/password`, { password: ALICE_PASSWORD, new_password: 'short' })).json().message,
    'password must be at least 8 characters',
  );
});

test('a cluster admin resets another user’s password without the current one, in either form', async (t) => {
  const { admin, passwordOf } = await v2Api(t);
  assert.equal((await admin(`${USERS}/alice/password`, { new_password: 'reset-pass-1' })).statusCode, 201);
  assert.equal(await verifyPassword('reset-pass-1', passwordOf('alice')), true);
  assert.equal((await admin(`${USERS}/alice/password`, { password: 'reset-pass-2' })).statusCode, 201);
  assert.equal(await verifyPassword('reset-pass-2', passwordOf('alice')), true);
  assert.equal((await admin(`${USERS}/nobody/password`, { new_password: 'reset-pass-3' })).statusCode, 404);
});

test('a user of an external provider has no local password to change or reset', async (t) => {
  const { admin } = await v2Api(t);
  for (const url of [`${USERS}/dir-dan/password`, `${USERS}/dir-dan/reset_password`]) {
    const reply = await admin(url, { new_password: 'whatever-1', password_hash: bcryptjs.hashSync('x', 4) });
    assert.equal(reply.statusCode, 400);
    assert.equal(reply.json().message, externalMessage('dir-dan', 'acme-ldap'));
  }
});

test('the web form takes password and password_new, both strings', async (t) => {
  const { bearer, as, passwordOf } = await v2Api(t);
  const alice = as(await bearer('alice', []));
  const bad = await alice(`${USERS}/alice/change_password`, { password: ALICE_PASSWORD, new_password: 'alice-pass-2' });
  assert.equal(bad.json().message, 'send {"password": <current password>, "password_new": <new password>}, both strings');
  assert.equal((await alice(`${USERS}/alice/change_password`, { password: ALICE_PASSWORD, password_new: 'alice-pass-2' })).statusCode, 201);
  assert.equal(await verifyPassword('alice-pass-2', passwordOf('alice')), true);
});

test('reset_password is a cluster admin’s, with a bcrypt hash; a user allowed to update users may not', async (t) => {
  const { admin, bearer, as, store, passwordOf } = await v2Api(t);
  const hash = bcryptjs.hashSync('reset-pass-1', 4);
  assert.equal((await admin(`${USERS}/alice/reset_password`, { password_hash: 'plain' })).statusCode, 400);
  assert.equal((await admin(`${USERS}/alice/reset_password`, { password_hash: hash })).statusCode, 201);
  assert.equal(passwordOf('alice'), hash);
  store.resources.putUser('ursula', { username: 'ursula', groups: ['user-admins'] });
  store.resources.putResource('ClusterRole', '', 'user-admin', { metadata: { name: 'user-admin' }, rules: [{ verbs: ['*'], resources: ['users'] }] });
  store.resources.putResource('ClusterRoleBinding', '', 'user-admin', {
    metadata: { name: 'user-admin' },
    subjects: [{ type: 'Group', name: 'user-admins' }],
    role_ref: { type: 'ClusterRole', name: 'user-admin' },
  });
  const ursula = as(await bearer('ursula', ['user-admins']));
  const refused = await ursula(`${USERS}/alice/reset_password`, { password_hash: hash });
  assert.equal(refused.statusCode, 403);
  assert.match(refused.json().message, /user "ursula" may not reset the password of user "alice": only cluster admins may/);
  assert.equal((await ursula(`${USERS}/alice/password`, { new_password: 'ursula-set-1' })).statusCode, 403);
});
