import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, ADMIN_PASSWORD } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { sensuctlSkipReason, sensuctlFor } from '../helpers/sensuctl.js';
import bcrypt from 'bcryptjs';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const HOST = { 'conf.d/client.json': { client: { name: 'password-host', address: '127.0.0.1', subscriptions: [] } } };

test("password change: the current password is required and checked, unless a cluster admin resets another user's", async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const api = `${v2}/api/core/v2`;
  const admin = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${api}/users`, 'POST', admin, { username: 'alice', password: 'alice-pass-1' })).status, 201);
  const signsIn = async (password: string) => (await getJson(`${v2}/auth`, { headers: basic('alice', password) })).status === 200;
  const login = async (password: string) => `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('alice', password) })).body.access_token}`;
  // Someone holding alice's session, without her password.
  const stolen = await login('alice-pass-1');
  const change = (body: unknown, as = stolen) => call(`${api}/users/alice/password`, 'PUT', as, body);

  const refusals: [unknown, RegExp][] = [
    [{ password: 'alice-pass-2' }, /^new_password is required \(password is the current password\)/],
    [{ new_password: 'alice-pass-2' }, /^password \(the current password\) is required/],
    [{ password: 'guessed-wrong', new_password: 'alice-pass-2' }, /^the current password is wrong$/],
    [{ password: 'alice-pass-1', new_password: 'short' }, /at least 8 characters/],
    [{ password: 7, new_password: 'alice-pass-2' }, /password \(the current password\) must be a string/],
  ];
  for (const [body, message] of refusals) {
    const refused = await change(body);
    assert.equal(refused.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(refused.body)}`);
    assert.match(refused.body.message, message);
  }
  assert.ok(await signsIn('alice-pass-1'), 'the password is unchanged');
  assert.ok(!(await signsIn('alice-pass-2')));

  // The right current password: changed, and her sessions end.
  assert.equal((await change({ password: 'alice-pass-1', new_password: 'alice-pass-2' })).status, 201);
  assert.ok(await signsIn('alice-pass-2'));
  assert.ok(!(await signsIn('alice-pass-1')));
  assert.equal((await call(`${api}/users/alice`, 'GET', stolen)).status, 401, 'the old session ended');

  // A cluster admin resets another user's password without it (new_password, or the new password alone as before);
  // a current password they send is checked all the same. Their own password needs their current one.
  assert.equal((await change({ new_password: 'alice-pass-3' }, admin)).status, 201);
  assert.ok(await signsIn('alice-pass-3'));
  assert.equal((await change({ password: 'alice-pass-4' }, admin)).status, 201);
  assert.ok(await signsIn('alice-pass-4'));
  assert.match((await change({ password: 'not-hers-1', new_password: 'alice-pass-5' }, admin)).body.message, /current password is wrong/);
  assert.ok(await signsIn('alice-pass-4'));
  assert.match((await call(`${api}/users/admin/password`, 'PUT', admin, { new_password: 'admin-pass-9' })).body.message, /current password\) is required/);
  assert.match(
    (await call(`${api}/users/admin`, 'PUT', admin, { username: 'admin', password: 'admin-pass-9', groups: ['cluster-admins'] })).body.message,
    /use PUT \/api\/core\/v2\/users\/admin\/password with the current password/,
  );
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('admin', ADMIN_PASSWORD) })).status, 200, 'the admin password is unchanged');

  // Guessing the current password is limited like logins, per address (20 failures a minute), then 429 even when right.
  const session = await login('alice-pass-4');
  let last = 0;
  for (let i = 0; i < 20 && last !== 429; i++) last = (await change({ password: `guess-${i}-x`, new_password: 'alice-pass-6' }, session)).status;
  assert.equal(last, 429, 'failures are limited');
  const limited = await change({ password: 'alice-pass-4', new_password: 'alice-pass-6' }, session);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
});

test('password change: a bcrypt password_hash (sensuctl, Sensu Go) is stored as given and checked at login; create and reset take one too', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const api = `${v2}/api/core/v2`;
  const admin = `Bearer ${await adminToken(v2)}`;
  const hashOf = (password: string) => bcrypt.hashSync(password, 4);
  const signsIn = async (user: string, password: string) => (await getJson(`${v2}/auth`, { headers: basic(user, password) })).status === 200;
  // Created with a hash alone (a Sensu Go dump, `sensuctl user hash-password`), or with both when they agree.
  assert.equal((await call(`${api}/users`, 'POST', admin, { username: 'bob', password_hash: hashOf('bob-pass-1') })).status, 201);
  assert.ok(await signsIn('bob', 'bob-pass-1'));
  assert.equal((await call(`${api}/users`, 'POST', admin, { username: 'carol', password: 'carol-pass', password_hash: hashOf('carol-pass') })).status, 201);
  assert.ok(await signsIn('carol', 'carol-pass'));
  const refusals: [unknown, RegExp][] = [
    [{ username: 'dave', password: 'dave-pass-1', password_hash: hashOf('other-pass') }, /hashed password does not match the cleartext password/],
    [{ username: 'dave', password_hash: 'not-a-hash' }, /password_hash must be a bcrypt hash/],
    [{ username: 'dave', password_hash: bcrypt.hashSync('x', 4).replace('$04$', '$20$') }, /bcrypt cost 20 is outside 4 to 12/],
    [{ username: 'dave' }, /a password or its hash \(password_hash\) is required/],
  ];
  for (const [body, message] of refusals) {
    const refused = await call(`${api}/users`, 'POST', admin, body);
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.match(refused.body.message, message);
  }
  // Changed with the current password and a hash of the new one; a malformed hash changes nothing.
  const bob = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('bob', 'bob-pass-1') })).body.access_token}`;
  assert.match(
    (await call(`${api}/users/bob/password`, 'PUT', bob, { password: 'bob-pass-1', password_hash: 'nope' })).body.message,
    /password_hash must be a bcrypt hash/,
  );
  assert.equal((await call(`${api}/users/bob/password`, 'PUT', bob, { password: 'bob-pass-1', password_hash: hashOf('bob-pass-2') })).status, 201);
  assert.ok(await signsIn('bob', 'bob-pass-2'));
  assert.ok(!(await signsIn('bob', 'bob-pass-1')));
  // reset_password (`sensuctl user reset-password`): a cluster admin's, no current password.
  const carol = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('carol', 'carol-pass') })).body.access_token}`;
  assert.equal((await call(`${api}/users/bob/reset_password`, 'PUT', carol, { password_hash: hashOf('carol-owns-bob') })).status, 403);
  assert.equal((await call(`${api}/users/bob/reset_password`, 'PUT', admin, { password_hash: hashOf('bob-pass-3') })).status, 201);
  assert.ok(await signsIn('bob', 'bob-pass-3'));
});

test('password change: the real sensuctl 6.12 user change-password sends the current password, which is checked', { skip: sensuctlSkipReason() }, async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'alice', password: 'alice-pass-1' })).status, 201);
  const sensuctl = sensuctlFor(t);
  const configured = sensuctl('configure', '-n', '--url', v2, '--username', 'alice', '--password', 'alice-pass-1', '--namespace', 'default');
  assert.equal(configured.status, 0, configured.stderr);

  const wrong = sensuctl('user', 'change-password', '--current-password', 'guessed-wrong', '--new-password', 'alice-pass-2');
  assert.notEqual(wrong.status, 0);
  assert.match(wrong.stderr + wrong.stdout, /the current password is wrong/);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('alice', 'alice-pass-1') })).status, 200, 'nothing changed');
});

test('password change: the real sensuctl 6.12 user change-password with the right current password changes it', { skip: sensuctlSkipReason() }, async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'alice', password: 'alice-pass-1' })).status, 201);
  const sensuctl = sensuctlFor(t);
  assert.equal(sensuctl('configure', '-n', '--url', v2, '--username', 'alice', '--password', 'alice-pass-1', '--namespace', 'default').status, 0);
  const changed = sensuctl('user', 'change-password', '--current-password', 'alice-pass-1', '--new-password', 'alice-pass-2');
  assert.equal(changed.status, 0, changed.stderr);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('alice', 'alice-pass-2') })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('alice', 'alice-pass-1') })).status, 401);
  // Its bcrypt hash is what is stored: the next change checks the current password against it.
  assert.equal(sensuctl('configure', '-n', '--url', v2, '--username', 'alice', '--password', 'alice-pass-2', '--namespace', 'default').status, 0);
  const wrong = sensuctl('user', 'change-password', '--current-password', 'alice-pass-1', '--new-password', 'alice-pass-3');
  assert.match(wrong.stderr + wrong.stdout, /the current password is wrong/);
  const again = sensuctl('user', 'change-password', '--current-password', 'alice-pass-2', '--new-password', 'alice-pass-3');
  assert.equal(again.status, 0, again.stderr);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('alice', 'alice-pass-3') })).status, 200);
});
