// Every v2 route's access decision, taken from its own pattern: anonymous routes, credentials, RBAC targets and unsafe URLs.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { registeredRoutes } from '../../../src/api/v2/access.js';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { v2App } from '../../helpers/v2-api.js';

/** The whole v2 API on a fresh store, with an admin and `alice` (group dev, no grant yet) signed in. */
async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  store.resources.putUser('alice', { username: 'alice', groups: ['dev'] });
  store.resources.putUser('bob', { username: 'bob', groups: [] });
  const bearer = async (user: string, groups: string[]) => `Bearer ${(await issueTokens(deps, user, groups)).access_token}`;
  const admin = await bearer('admin', ['cluster-admins']);
  const alice = await bearer('alice', ['dev']);
  const as = (authorization: string | null) => (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: authorization ? { authorization } : {}, ...(payload ? { payload } : {}) });
  return { app, token: admin, admin: as(admin), alice: as(alice), anonymous: as(null), raw: as };
}

test('health and version answer without credentials, and the route table marks them anonymous', async (t) => {
  const { app, anonymous } = await v2Api(t);
  assert.equal((await anonymous('GET', '/health')).statusCode, 200);
  assert.equal((await anonymous('GET', '/version')).statusCode, 200);
  const routes = registeredRoutes(app);
  const accessOf = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url)?.access;
  assert.equal(accessOf('GET', '/health'), 'anonymous');
  assert.equal(accessOf('GET', '/auth'), 'anonymous');
  assert.equal(accessOf('GET', '/api/core/v2/users'), 'rbac');
  assert.equal(accessOf('PUT', '/api/core/v2/namespaces/:namespace/checks/:name'), 'rbac');
});

test('a protected route without credentials says bad credentials; with a token or key nobody issued, invalid credentials', async (t) => {
  const { anonymous, raw } = await v2Api(t);
  const none = await anonymous('GET', '/api/core/v2/users');
  assert.equal(none.statusCode, 401);
  assert.deepEqual(none.json(), { message: 'bad credentials', code: 5 });
  assert.equal((await raw('Bearer not-a-token')('GET', '/api/core/v2/users')).json().message, 'invalid credentials');
  assert.equal((await raw('Key 00000000-0000-0000-0000-000000000000')('GET', '/api/core/v2/users')).json().message, 'invalid credentials');
});

test('a namespaced grant lets its holder act in that namespace only, with the verbs it grants', async (t) => {
  const { admin, alice } = await v2Api(t);
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/prod', {})).statusCode, 201);
  const binding = { subjects: [{ type: 'Group', name: 'dev' }], role_ref: { type: 'ClusterRole', name: 'view' } };
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/default/rolebindings/dev-view', binding)).statusCode, 201);
  assert.equal((await alice('GET', '/api/core/v2/namespaces/default/checks')).statusCode, 200);
  const elsewhere = await alice('GET', '/api/core/v2/namespaces/prod/checks');
  assert.equal(elsewhere.statusCode, 403);
  assert.equal(elsewhere.json().code, 4);
  // view grants get and list, not create.
  const create = await alice('PUT', '/api/core/v2/namespaces/default/checks/c', { metadata: { name: 'c' }, command: 'true', interval: 10 });
  assert.equal(create.statusCode, 403);
});

test('GET of one entity’s events is a list; one event by entity and check is a get', async (t) => {
  const { admin, alice } = await v2Api(t);
  const role = { rules: [{ verbs: ['list'], resources: ['events'] }] };
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/default/roles/lister', role)).statusCode, 201);
  const binding = { subjects: [{ type: 'User', name: 'alice' }], role_ref: { type: 'Role', name: 'lister' } };
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/default/rolebindings/lister', binding)).statusCode, 201);
  assert.equal((await alice('GET', '/api/core/v2/namespaces/default/events/host-1')).statusCode, 200);
  assert.equal((await alice('GET', '/api/core/v2/namespaces/default/events/host-1/cpu')).statusCode, 403);
});

test('a grant naming resources allows those names only', async (t) => {
  const { admin, alice } = await v2Api(t);
  const role = { rules: [{ verbs: ['get'], resources: ['checks'], resource_names: ['allowed'] }] };
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/default/roles/one-check', role)).statusCode, 201);
  const binding = { subjects: [{ type: 'Group', name: 'dev' }], role_ref: { type: 'Role', name: 'one-check' } };
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/default/rolebindings/one-check', binding)).statusCode, 201);
  // Allowed through to the handler (nothing stored: 404), where another name is refused before it.
  assert.equal((await alice('GET', '/api/core/v2/namespaces/default/checks/allowed')).statusCode, 404);
  assert.equal((await alice('GET', '/api/core/v2/namespaces/default/checks/other')).statusCode, 403);
});

test('a user reads themselves without any grant, and nobody else', async (t) => {
  const { alice } = await v2Api(t);
  const self = await alice('GET', '/api/core/v2/users/alice');
  assert.equal(self.statusCode, 200);
  assert.equal(self.json().username, 'alice');
  assert.equal((await alice('GET', '/api/core/v2/users/bob')).statusCode, 403);
  assert.equal((await alice('GET', '/api/core/v2/users')).statusCode, 403);
});

test('the namespace list is left to its handler, which shows each caller what they may see', async (t) => {
  const { alice } = await v2Api(t);
  const reply = await alice('GET', '/api/core/v2/namespaces');
  assert.equal(reply.statusCode, 403);
  assert.match(reply.json().message, /holds no grant in any namespace/);
});

test('absolute-form targets, encoded slashes, dot segments, empty segments and broken percent-encoding are refused before routing', async (t) => {
  const { app, token } = await v2Api(t);
  // A real socket: an injected request's URL would be normalised before the hook sees it.
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const refusal = async (target: string) => {
    const reply = await rawRequest(base, 'GET', target, { authorization: token });
    assert.equal(reply.status, 400, target);
    return JSON.parse(reply.text).message as string;
  };
  assert.equal(await refusal(`${base}/api/core/v2/namespaces`), 'the request target must be an absolute path');
  assert.equal(await refusal('/api/core/v2/namespaces/default/checks/a%2Fb'), 'encoded slashes are not allowed in the path');
  assert.equal(await refusal('/api/core/v2/namespaces/default/checks/a%5cb'), 'encoded slashes are not allowed in the path');
  assert.equal(await refusal('/api/core/v2/namespaces/%2e%2e/checks'), 'dot segments are not allowed in the path');
  assert.equal(await refusal('/api/core/v2/namespaces/default/./checks'), 'dot segments are not allowed in the path');
  assert.equal(await refusal('/api/core/v2//namespaces'), 'empty path segments are not allowed');
  // Broken percent-encoding never reaches a handler (the router itself refuses it first).
  await refusal('/api/core/v2/namespaces/%E0%A4%A/checks');
  assert.equal((await rawRequest(base, 'GET', '/api/core/v2/namespaces/default/checks', { authorization: token })).status, 200);
});

test('an asset’s own route takes an encoded slash in its name', async (t) => {
  const { admin } = await v2Api(t);
  const reply = await admin('GET', '/api/core/v2/namespaces/default/assets/sensu%2Fcheck-cpu');
  assert.equal(reply.statusCode, 404);
  assert.equal(reply.json().message, 'not found');
});
