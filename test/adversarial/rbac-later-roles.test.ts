// A binding to a role that does not exist yet must not turn into a grant when the role is created
// later by someone else (nor when a bound role is deleted and created again under its name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const bind = (user: string, type: 'Role' | 'ClusterRole', name: string) => ({ subjects: [{ type: 'User', name: user }], role_ref: { type, name } });

test('RBAC: a namespace admin cannot bind a role before it exists; a binding applies only to the role it was written against', async (t) => {
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

  // A role lea may create and bind (she holds its rules); she deletes the role (as `sensuctl delete -f` of a role and
  // its binding does) and creates another of that name: the binding left behind applies to the deleted role alone.
  assert.equal((await call(`${ns}/roles/reader`, 'PUT', lea, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${ns}/rolebindings/mo-reader`, 'PUT', lea, bind('mo', 'Role', 'reader'))).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 200);
  assert.equal((await call(`${ns}/roles/reader`, 'DELETE', lea)).status, 204);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 403);
  assert.equal((await call(`${ns}/roles/reader`, 'PUT', lea, { rules: [{ verbs: ['get', 'list'], resources: ['checks', 'entities'] }] })).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 403, 'the old binding does not apply to the new role');
  assert.equal((await call(`${ns}/rolebindings/mo-reader`, 'GET', admin)).status, 200, 'the binding is still there, to read or delete');
  // Written again, the binding applies to the role as it is now.
  assert.equal((await call(`${ns}/rolebindings/mo-reader`, 'PUT', lea, bind('mo', 'Role', 'reader'))).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 200);
  assert.equal((await call(`${ns}/rolebindings/mo-reader`, 'DELETE', lea)).status, 204);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 403);

  // The same for a ClusterRole bound in a namespace: deleted and created again, the old binding grants nothing.
  assert.equal((await call(`${core}/clusterroles/check-viewer`, 'PUT', admin, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${ns}/rolebindings/mo-viewer`, 'PUT', admin, bind('mo', 'ClusterRole', 'check-viewer'))).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 200);
  assert.equal((await call(`${core}/clusterroles/check-viewer`, 'DELETE', admin)).status, 204);
  assert.equal((await call(`${core}/clusterroles/check-viewer`, 'PUT', admin, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 403);
  // A binding written before its role existed applies to the first role of that name.
  assert.equal((await call(`${core}/clusterroles/not-yet`, 'PUT', admin, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${ns}/checks`, 'GET', mo)).status, 200);
});
