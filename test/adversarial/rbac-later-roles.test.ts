// A binding to a role that does not exist yet must not turn into a grant when the role is created
// later (nor when a bound role is deleted and created again under its name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const bind = (user: string, type: 'Role' | 'ClusterRole', name: string) => ({ subjects: [{ type: 'User', name: user }], role_ref: { type, name } });

test('RBAC: a namespace admin cannot bind a role before it exists, nor empty a bound role to have it created again', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'later-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  const ns = `${core}/namespaces/team-l`;
  assert.equal((await call(`${core}/namespaces/team-l`, 'PUT', admin, {})).status, 201);
  for (const name of ['lea', 'mo']) assert.equal((await call(`${core}/users`, 'POST', admin, { username: name, password: `${name}-pass-1` })).status, 201);
  // lea administers team-l (the built-in admin role there), mo is nobody yet.
  assert.equal((await call(`${ns}/rolebindings/lea-admin`, 'PUT', admin, bind('lea', 'ClusterRole', 'admin'))).status, 201);
  const lea = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('lea', 'lea-pass-1') })).body.access_token}`;
  const mo = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('mo', 'mo-pass-1') })).body.access_token}`;

  // A ClusterRole that does not exist yet, and a Role of team-l that does not exist yet: refused, naming the role.
  for (const [path, body, named] of [
    ['rolebindings/ahead', bind('mo', 'ClusterRole', 'future-ops'), /ClusterRole "future-ops" does not exist/],
    ['rolebindings/ahead-role', bind('mo', 'Role', 'future-role'), /Role "future-role" does not exist in namespace "team-l"/],
  ] as const) {
    const refused = await call(`${ns}/${path}`, 'PUT', lea, body);
    assert.equal(refused.status, 403, `${path}: ${JSON.stringify(refused.body)}`);
    assert.match(refused.body.message, named);
  }
  // The cluster admin later creates the ClusterRole for its own reasons: mo gains nothing.
  assert.equal((await call(`${core}/clusterroles/future-ops`, 'PUT', admin, { rules: [{ verbs: ['*'], resources: ['*'] }] })).status, 201);
  assert.equal((await call(`${ns}/rolebindings/ahead`, 'GET', admin)).status, 404, 'the binding was never stored');
  assert.equal((await call(`${core}/users`, 'GET', mo)).status, 403);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 403);

  // A cluster admin (who holds every permission) may still bind ahead.
  assert.equal((await call(`${ns}/rolebindings/prepared`, 'PUT', admin, bind('mo', 'ClusterRole', 'not-yet'))).status, 201);

  // A role lea may create and bind (she holds its rules); then she deletes the role and leaves the binding behind,
  // for whatever is created under that name next: refused while bound, with the bindings named.
  assert.equal((await call(`${ns}/roles/reader`, 'PUT', lea, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${ns}/rolebindings/mo-reader`, 'PUT', lea, bind('mo', 'Role', 'reader'))).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 200);
  const inUse = await call(`${ns}/roles/reader`, 'DELETE', lea);
  assert.equal(inUse.status, 409, JSON.stringify(inUse.body));
  assert.match(inUse.body.message, /Role reader is bound by RoleBinding team-l\/mo-reader: delete those bindings first/);
  const clusterInUse = await call(`${core}/clusterroles/admin`, 'DELETE', admin);
  assert.equal(clusterInUse.status, 409);
  assert.match(clusterInUse.body.message, /ClusterRole admin is bound by RoleBinding team-l\/lea-admin/);
  // Binding gone, the role goes.
  assert.equal((await call(`${ns}/rolebindings/mo-reader`, 'DELETE', lea)).status, 204);
  assert.equal((await call(`${ns}/roles/reader`, 'DELETE', lea)).status, 204);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 403);
});
