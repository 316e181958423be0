// Namespaces through the v2 API on a real SQLite store: creating, patching, listing by grant, and deleting only when empty.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { v2App } from '../../helpers/v2-api.js';

const NS = '/api/core/v2/namespaces';
type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  store.resources.putUser('alice', { username: 'alice', groups: ['dev'] });
  const as = (authorization: string) => (method: Method, url: string, payload?: object | string, type?: string) =>
    app.inject({
      method,
      url,
      headers: { authorization, ...(type ? { 'content-type': type } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    });
  const admin = as(`Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`);
  const alice = as(`Bearer ${(await issueTokens(deps, 'alice', ['dev'])).access_token}`);
  return { store, admin, alice };
}

test('the default namespace exists from the start and cannot be deleted', async (t) => {
  const { admin } = await v2Api(t);
  assert.deepEqual((await admin('GET', NS)).json(), [{ name: 'default' }]);
  const reply = await admin('DELETE', `${NS}/default`);
  assert.equal(reply.statusCode, 409);
  assert.equal(reply.json().message, 'the default namespace cannot be deleted');
});

test('PUT creates a namespace under the URL’s name, which the body may repeat but not contradict', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${NS}/prod`, { name: 'prod' })).statusCode, 201);
  assert.equal((await admin('PUT', `${NS}/stage`, {})).statusCode, 201);
  const mismatch = await admin('PUT', `${NS}/qa`, { name: 'other' });
  assert.equal(mismatch.statusCode, 400);
  assert.equal(mismatch.json().message, 'the name of the resource (other) does not match the name of the URI (qa)');
  assert.match((await admin('PUT', `${NS}/bad%20name`, {})).json().message, /^name must be 1 to \d+ letters, digits/);
  assert.deepEqual((await admin('GET', `${NS}/prod`)).json(), { name: 'prod' });
  assert.deepEqual(
    ((await admin('GET', NS)).json() as { name: string }[]).map((n) => n.name),
    ['default', 'prod', 'stage'],
  );
});

test('POST creates once, from name or metadata.name, and refuses a body that is not an object', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('POST', NS, { name: 'ops' })).statusCode, 201);
  assert.equal((await admin('POST', NS, { metadata: { name: 'dev' } })).statusCode, 201);
  const again = await admin('POST', NS, { name: 'ops' });
  assert.equal(again.statusCode, 409);
  assert.equal(again.json().message, 'resource already exists');
  assert.equal((await admin('POST', NS, '["ops"]', 'application/json')).json().message, 'request body must be a JSON object: {"name": <namespace>}');
  assert.equal((await admin('POST', NS, {})).json().message, 'name must not be empty');
});

test('PATCH answers the namespace with 200', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${NS}/prod`, {})).statusCode, 201);
  const reply = await admin('PATCH', `${NS}/prod`, '{}', 'application/merge-patch+json');
  assert.equal(reply.statusCode, 200);
  assert.deepEqual(reply.json(), { name: 'prod' });
});

test('a namespace is deleted only once nothing lives in it: its resources and its events are named', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${NS}/prod`, {})).statusCode, 201);
  assert.equal((await admin('PUT', `${NS}/prod/checks/cpu`, { metadata: { name: 'cpu' }, command: 'true', interval: 10 })).statusCode, 201);
  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'disk' }, interval: 60, status: 0, output: 'ok', executed: 1_700_000_000 },
  };
  assert.ok([200, 201].includes((await admin('PUT', `${NS}/prod/events/web-1/disk`, event)).statusCode));
  const busy = await admin('DELETE', `${NS}/prod`);
  assert.equal(busy.statusCode, 409);
  assert.match(busy.json().message, /^namespace prod is referenced by Event \(its events\), .*CheckConfig cpu.*: delete them first$/);
  assert.equal((await admin('DELETE', `${NS}/prod/events/web-1/disk`)).statusCode, 204);
  assert.equal((await admin('DELETE', `${NS}/prod/entities/web-1`)).statusCode, 204);
  assert.equal((await admin('DELETE', `${NS}/prod/checks/cpu`)).statusCode, 204);
  assert.equal((await admin('DELETE', `${NS}/prod`)).statusCode, 204);
  assert.equal((await admin('DELETE', `${NS}/prod`)).statusCode, 404);
});

test('a caller sees the namespaces where they hold a grant; of others, not even whether they exist', async (t) => {
  const { admin, alice } = await v2Api(t);
  assert.equal((await admin('PUT', `${NS}/prod`, {})).statusCode, 201);
  const binding = { subjects: [{ type: 'Group', name: 'dev' }], role_ref: { type: 'ClusterRole', name: 'view' } };
  assert.equal((await admin('PUT', `${NS}/prod/rolebindings/dev-view`, binding)).statusCode, 201);
  assert.deepEqual((await alice('GET', NS)).json(), [{ name: 'prod' }]);
  assert.deepEqual((await alice('GET', `${NS}/prod`)).json(), { name: 'prod' });
  const hidden = await alice('GET', `${NS}/default`);
  assert.equal(hidden.statusCode, 403);
  assert.equal(hidden.json().message, 'unauthorized to perform action: user "alice" may not get namespaces "default"');
  assert.equal((await alice('GET', `${NS}/nowhere`)).statusCode, 403);
  // A cluster-wide reader learns that one does not exist.
  assert.equal((await admin('GET', `${NS}/nowhere`)).statusCode, 404);
});
