// Roles, role bindings and their cluster-wide kinds through the v2 API on a real SQLite store: seeds, checks, escalation, generations.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { v2App } from '../../helpers/v2-api.js';

const DEFAULT = '/api/core/v2/namespaces/default';
type Method = 'GET' | 'PUT' | 'DELETE';

/** The API with an admin and `nadia`, who holds the built-in `admin` ClusterRole in the default namespace only. */
async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  store.resources.putUser('nadia', { username: 'nadia', groups: [] });
  store.resources.putUser('dev', { username: 'dev', groups: [] });
  const as = (authorization: string) => (method: Method, url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const admin = as(`Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`);
  const nadia = as(`Bearer ${(await issueTokens(deps, 'nadia', [])).access_token}`);
  const dev = as(`Bearer ${(await issueTokens(deps, 'dev', [])).access_token}`);
  const put = async (who: typeof admin, url: string, body: object) => {
    const reply = await who('PUT', url, body);
    assert.equal(reply.statusCode, 201, `${url}: ${reply.body}`);
  };
  await put(admin, `${DEFAULT}/rolebindings/nadia-admin`, { subjects: [{ type: 'User', name: 'nadia' }], role_ref: { type: 'ClusterRole', name: 'admin' } });
  return { admin, nadia, dev, put };
}

const userBinding = (user: string, type: 'Role' | 'ClusterRole', name: string) => ({ subjects: [{ type: 'User', name: user }], role_ref: { type, name } });

test('the built-in cluster roles and the cluster-admin binding are seeded', async (t) => {
  const { admin } = await v2Api(t);
  const roles = (await admin('GET', '/api/core/v2/clusterroles')).json() as { metadata: { name: string } }[];
  assert.deepEqual(roles.map((r) => r.metadata.name).sort(), ['admin', 'cluster-admin', 'edit', 'view']);
  const bindings = (await admin('GET', '/api/core/v2/clusterrolebindings')).json() as { metadata: { name: string }; subjects: unknown }[];
  assert.deepEqual(
    bindings.map((b) => [b.metadata.name, b.subjects]),
    [['cluster-admin', [{ type: 'Group', name: 'cluster-admins' }]]],
  );
});

test('roles need valid rules, and bindings a role type their kind may bind', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${DEFAULT}/roles/empty`, { rules: [] })).json().message, 'rules must be a non-empty array');
  assert.match(
    (await admin('PUT', '/api/core/v2/clusterroles/bad', { rules: [{ verbs: ['fly'], resources: ['checks'] }] })).json().message,
    /^rules\[0\]\.verbs must be a list of/,
  );
  const crb = await admin('PUT', '/api/core/v2/clusterrolebindings/bad', userBinding('dev', 'Role', 'view'));
  assert.equal(crb.json().message, 'role_ref.type must be ClusterRole');
  assert.equal(
    (await admin('PUT', `${DEFAULT}/rolebindings/bad`, { role_ref: { type: 'Role', name: 'r' }, subjects: [] })).json().message,
    'subjects must be a non-empty array',
  );
});

test('nobody grants in a role what they do not hold themselves', async (t) => {
  const { nadia, put } = await v2Api(t);
  await put(nadia, `${DEFAULT}/roles/check-editor`, { rules: [{ verbs: ['*'], resources: ['checks'] }] });
  const escalation = await nadia('PUT', `${DEFAULT}/roles/user-editor`, { rules: [{ verbs: ['*'], resources: ['users'] }] });
  assert.equal(escalation.statusCode, 403);
  assert.match(escalation.json().message, /^unauthorized to perform action: user "nadia" may not grant .*which they do not hold themselves$/);
});

test('nobody binds a role granting more than they hold, nor one that does not exist yet unless they hold everything', async (t) => {
  const { admin, nadia, put } = await v2Api(t);
  await put(nadia, `${DEFAULT}/rolebindings/dev-edit`, userBinding('dev', 'ClusterRole', 'edit'));
  assert.equal((await nadia('PUT', `${DEFAULT}/rolebindings/dev-root`, userBinding('dev', 'ClusterRole', 'cluster-admin'))).statusCode, 403);
  const ahead = await nadia('PUT', `${DEFAULT}/rolebindings/dev-ghost`, userBinding('dev', 'Role', 'ghost'));
  assert.equal(ahead.statusCode, 403);
  assert.equal(
    ahead.json().message,
    'role_ref: Role "ghost" does not exist in namespace "default": create it first (only a user holding every permission may bind a role before it exists)',
  );
  await put(admin, `${DEFAULT}/rolebindings/dev-ghost`, userBinding('dev', 'Role', 'ghost'));
});

test('a binding written ahead of its role applies once the role exists', async (t) => {
  const { admin, dev, put } = await v2Api(t);
  await put(admin, `${DEFAULT}/rolebindings/dev-later`, userBinding('dev', 'Role', 'later'));
  assert.equal((await dev('GET', `${DEFAULT}/checks`)).statusCode, 403);
  await put(admin, `${DEFAULT}/roles/later`, { rules: [{ verbs: ['list'], resources: ['checks'] }] });
  assert.equal((await dev('GET', `${DEFAULT}/checks`)).statusCode, 200);
});

test('a role deleted and created again does not revive the bindings of the old one', async (t) => {
  const { admin, dev, put } = await v2Api(t);
  const rules = { rules: [{ verbs: ['list'], resources: ['checks'] }] };
  await put(admin, `${DEFAULT}/roles/reader`, rules);
  await put(admin, `${DEFAULT}/rolebindings/dev-reader`, userBinding('dev', 'Role', 'reader'));
  assert.equal((await dev('GET', `${DEFAULT}/checks`)).statusCode, 200);
  assert.equal((await admin('DELETE', `${DEFAULT}/roles/reader`)).statusCode, 204);
  assert.equal((await dev('GET', `${DEFAULT}/checks`)).statusCode, 403);
  await put(admin, `${DEFAULT}/roles/reader`, rules);
  assert.equal((await dev('GET', `${DEFAULT}/checks`)).statusCode, 403, 'the old binding stays with the deleted role');
  // Written again, it applies to the new role.
  await put(admin, `${DEFAULT}/rolebindings/dev-reader`, userBinding('dev', 'Role', 'reader'));
  assert.equal((await dev('GET', `${DEFAULT}/checks`)).statusCode, 200);
});

test('the same holds for cluster roles and their cluster-wide bindings', async (t) => {
  const { admin, dev, put } = await v2Api(t);
  const rules = { rules: [{ verbs: ['list'], resources: ['checks'] }] };
  await put(admin, '/api/core/v2/clusterroles/lister', rules);
  await put(admin, '/api/core/v2/clusterrolebindings/dev-lister', userBinding('dev', 'ClusterRole', 'lister'));
  assert.equal((await dev('GET', '/api/core/v2/checks')).statusCode, 200);
  assert.equal((await admin('DELETE', '/api/core/v2/clusterroles/lister')).statusCode, 204);
  await put(admin, '/api/core/v2/clusterroles/lister', rules);
  assert.equal((await dev('GET', '/api/core/v2/checks')).statusCode, 403);
  assert.equal((await admin('DELETE', '/api/core/v2/clusterrolebindings/dev-lister')).statusCode, 204);
  await put(admin, '/api/core/v2/clusterrolebindings/dev-lister', userBinding('dev', 'ClusterRole', 'lister'));
  assert.equal((await dev('GET', '/api/core/v2/checks')).statusCode, 200);
});
