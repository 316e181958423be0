// Someone allowed to update `users` re-enabled a disabled cluster admin and disabled
// admin. Disabling, re-enabling or changing a user who holds what the caller does not is a cluster admin's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, ADMIN_PASSWORD } from '../helpers/instance.js';
import { call, adminToken, type Reply } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

function assertRefused(reply: Reply, where: string, message: RegExp): void {
  assert.equal(reply.status, 403, `${where}: ${JSON.stringify(reply.body)}`);
  assert.equal(reply.body.code, 4);
  assert.match(reply.body.message, message, where);
}

test('a `users` writer cannot disable, re-enable or change a user who holds more than they do', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'user-writes-host', address: '127.0.0.1', subscriptions: [] } } });
  const api = `${v2}/api/core/v2`;
  const admin = `Bearer ${await adminToken(v2)}`;
  // uma may do anything to users; old-root is a cluster admin whom a cluster admin disabled; dev edits in default.
  const setup: [string, string, unknown][] = [
    ['/clusterroles/user-manager', 'PUT', { rules: [{ verbs: ['*'], resources: ['users'] }] }],
    [
      '/clusterrolebindings/user-managers',
      'PUT',
      { subjects: [{ type: 'Group', name: 'user-managers' }], role_ref: { type: 'ClusterRole', name: 'user-manager' } },
    ],
    ['/namespaces/default/rolebindings/dev-edit', 'PUT', { subjects: [{ type: 'Group', name: 'dev' }], role_ref: { type: 'ClusterRole', name: 'edit' } }],
    ['/users', 'POST', { username: 'uma', password: 'uma-pass-1', groups: ['user-managers'] }],
    ['/users', 'POST', { username: 'old-root', password: 'old-root-pass-1', groups: ['cluster-admins'] }],
    ['/users', 'POST', { username: 'eddie', password: 'eddie-pass-1', groups: ['dev'] }],
    ['/users', 'POST', { username: 'peer', password: 'peer-pass-1', groups: ['user-managers'] }],
  ];
  for (const [path, method, body] of setup) assert.equal((await call(`${api}${path}`, method, admin, body)).status, 201, path);
  assert.equal((await call(`${api}/users/old-root`, 'DELETE', admin)).status, 204);
  const uma = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('uma', 'uma-pass-1') })).body.access_token}`;

  assertRefused(
    await call(`${api}/users/old-root`, 'PUT', uma, { username: 'old-root', groups: ['cluster-admins'], disabled: false }),
    're-enable a cluster admin',
    /^unauthorized to perform action: user "uma" may not re-enable user "old-root": they hold \* on \* cluster-wide \(binding "cluster-admin"\), which "uma" does not; only cluster admins may$/,
  );
  assertRefused(await call(`${api}/users/admin`, 'DELETE', uma), 'disable admin', /may not disable user "admin": they hold \* on \* cluster-wide/);
  assertRefused(
    await call(`${api}/users/admin`, 'PUT', uma, { username: 'admin', groups: ['cluster-admins'], disabled: true }),
    'disable admin by PUT',
    /may not disable user "admin"/,
  );
  assertRefused(
    await call(`${api}/users/admin`, 'PUT', uma, { username: 'admin', groups: [] }),
    'take admin out of cluster-admins',
    /may not change user "admin"/,
  );
  // Holding more in one namespace is enough.
  assertRefused(
    await call(`${api}/users/eddie`, 'DELETE', uma),
    'disable a namespace editor',
    /may not disable user "eddie": they hold \* on assets in namespace "default" \(binding "default\/dev-edit"\)/,
  );

  // Nothing changed: admin and eddie still sign in, old-root does not.
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('admin', ADMIN_PASSWORD) })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('eddie', 'eddie-pass-1') })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('old-root', 'old-root-pass-1') })).status, 401);
  assert.deepEqual((await call(`${api}/users/admin`, 'GET', admin)).body, { username: 'admin', groups: ['cluster-admins'], disabled: false });

  // A user holding no more than uma is hers to disable and re-enable; a cluster admin may do all of it.
  assert.equal((await call(`${api}/users/peer`, 'DELETE', uma)).status, 204);
  assert.equal((await call(`${api}/users/peer`, 'PUT', uma, { username: 'peer', groups: ['user-managers'], disabled: false })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('peer', 'peer-pass-1') })).status, 200);
  assert.equal((await call(`${api}/users/old-root`, 'PUT', admin, { username: 'old-root', groups: ['cluster-admins'], disabled: false })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('old-root', 'old-root-pass-1') })).status, 200);
  assert.equal((await call(`${api}/users/eddie`, 'DELETE', admin)).status, 204);
});
