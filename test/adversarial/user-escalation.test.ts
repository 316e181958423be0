import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, ADMIN_PASSWORD } from '../helpers/instance.js';
import { call, adminToken, type Reply } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const core = (v2: string) => `${v2}/api/core/v2`;

function assertRefused(reply: Reply, where: string, message: RegExp): void {
  assert.equal(reply.status, 403, `${where}: ${JSON.stringify(reply.body)}`);
  assert.equal(reply.body.code, 4);
  assert.match(reply.body.message, message, where);
}

test("users and API keys: nobody grants through group membership, another user's password or an API key what they do not hold", async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'escalation-host', address: '127.0.0.1', subscriptions: [] } } });
  const api = core(v2);
  const admin = `Bearer ${await adminToken(v2)}`;
  // uma may do anything to users and API keys, and nothing else; group dev edits in default; a binding already names
  // a user `ghost` who does not exist yet.
  const setup: [string, string, unknown][] = [
    ['/clusterroles/user-manager', 'PUT', { rules: [{ verbs: ['*'], resources: ['users', 'apikeys'] }] }],
    [
      '/clusterrolebindings/user-managers',
      'PUT',
      { subjects: [{ type: 'Group', name: 'user-managers' }], role_ref: { type: 'ClusterRole', name: 'user-manager' } },
    ],
    ['/namespaces/default/rolebindings/dev-edit', 'PUT', { subjects: [{ type: 'Group', name: 'dev' }], role_ref: { type: 'ClusterRole', name: 'edit' } }],
    ['/clusterrolebindings/ghost', 'PUT', { subjects: [{ type: 'User', name: 'ghost' }], role_ref: { type: 'ClusterRole', name: 'cluster-admin' } }],
    ['/users', 'POST', { username: 'uma', password: 'uma-pass-1', groups: ['user-managers'] }],
  ];
  for (const [path, method, body] of setup) assert.equal((await call(`${api}${path}`, method, admin, body)).status, 201, path);
  const uma = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('uma', 'uma-pass-1') })).body.access_token}`;

  // Group membership: groups bound to what uma does not hold, for a new user, another user or herself.
  assertRefused(
    await call(`${api}/users`, 'POST', uma, { username: 'mallory', password: 'mallory-pass-1', groups: ['cluster-admins'] }),
    'a new cluster admin',
    /^unauthorized to perform action: user "uma" may not add "mallory" to group "cluster-admins": binding "cluster-admin" grants \* on \* cluster-wide, which they do not hold themselves$/,
  );
  assertRefused(
    await call(`${api}/users/uma`, 'PUT', uma, { username: 'uma', groups: ['user-managers', 'cluster-admins'] }),
    'herself a cluster admin',
    /may not add "uma" to group "cluster-admins"/,
  );
  assertRefused(
    await call(`${api}/users/admin`, 'PUT', uma, { username: 'admin', groups: ['cluster-admins', 'dev'] }),
    'another user into dev',
    /may not add "admin" to group "dev": binding "default\/dev-edit" grants \* on assets in namespace "default"/,
  );
  assertRefused(
    await call(`${api}/users`, 'POST', uma, { username: 'eddie', password: 'eddie-pass-1', groups: ['dev'] }),
    'a namespace editor',
    /may not add "eddie" to group "dev"/,
  );
  // A user named by an existing binding: creating them (with a password she knows) would hand her that binding.
  assertRefused(
    await call(`${api}/users`, 'POST', uma, { username: 'ghost', password: 'ghost-pass-1' }),
    'a user bound to cluster-admin',
    /may not create user "ghost": binding "ghost" grants \* on \* cluster-wide/,
  );
  // Another user's password, through either route, and an API key for another user.
  assertRefused(
    await call(`${api}/users/admin`, 'PUT', uma, { username: 'admin', password: 'taken-over-1', groups: ['cluster-admins'] }),
    "admin's password by PUT",
    /may not reset the password of user "admin"/,
  );
  assertRefused(
    await call(`${api}/users/admin/password`, 'PUT', uma, { new_password: 'taken-over-1' }),
    "admin's password",
    /may not reset the password of user "admin"/,
  );
  assertRefused(
    await call(`${api}/users/admin/password`, 'PUT', uma, { password: 'taken-over-1' }),
    "admin's password (earlier form)",
    /may not reset the password of user "admin"/,
  );
  assertRefused(
    await call(`${api}/apikeys`, 'POST', uma, { username: 'admin' }),
    'a key for admin',
    /^unauthorized to perform action: user "uma" may not create an API key for user "admin": only cluster admins act for another user$/,
  );
  // Nor can she make admin an external user (who has no local password).
  assertRefused(
    await call(`${api}/users/admin`, 'PUT', uma, { username: 'admin', provider: 'acme' }),
    'admin external',
    /may not change the authentication provider of user "admin"/,
  );

  // Nothing changed.
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('admin', ADMIN_PASSWORD) })).status, 200, "admin's password is unchanged");
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('admin', 'taken-over-1') })).status, 401);
  for (const name of ['mallory', 'eddie', 'ghost']) assert.equal((await call(`${api}/users/${name}`, 'GET', admin)).status, 404, `${name} was not created`);
  assert.deepEqual((await call(`${api}/users/admin`, 'GET', admin)).body.groups, ['cluster-admins']);
  assert.deepEqual((await call(`${api}/users/uma`, 'GET', admin)).body.groups, ['user-managers']);
  assert.equal((await call(`${api}/apikeys`, 'GET', admin)).body.length, 0, 'no key was minted');

  // What she holds, she may hand out: users in her own group or in none, a key for herself.
  assert.equal((await call(`${api}/users`, 'POST', uma, { username: 'newbie', password: 'newbie-pass-1', groups: ['user-managers', 'unbound'] })).status, 201);
  assert.equal((await call(`${api}/users/uma`, 'PUT', uma, { username: 'uma', groups: ['user-managers'] })).status, 200);
  assert.equal((await call(`${api}/users/newbie`, 'PUT', uma, { username: 'newbie', disabled: false })).status, 200);
  const own = await call(`${api}/apikeys`, 'POST', uma, { username: 'uma' });
  assert.equal(own.status, 201);
  assert.equal((await call(`${api}/users/uma`, 'GET', `Key ${own.headers.get('location')!.split('/').pop()}`)).status, 200);

  // A cluster admin holds everything: any group, any user's password, a key for anyone.
  assert.equal((await call(`${api}/users`, 'POST', admin, { username: 'ghost', password: 'ghost-pass-1', groups: ['dev'] })).status, 201);
  assert.equal((await call(`${api}/users/newbie`, 'PUT', admin, { username: 'newbie', groups: ['cluster-admins'] })).status, 200);
  assert.equal((await call(`${api}/users/uma/password`, 'PUT', admin, { new_password: 'uma-pass-2' })).status, 201);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('uma', 'uma-pass-2') })).status, 200);
  assert.equal((await call(`${api}/apikeys`, 'POST', admin, { username: 'uma' })).status, 201);
});
