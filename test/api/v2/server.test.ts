// The v2 API as buildV2Api assembles it, on a real SQLite store: the answers its own hooks and handlers give.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { v2App } from '../../helpers/v2-api.js';

async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const admin = `Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`;
  return { app, admin };
}

test('a known path asked with a method it does not serve is a 405 with no body, even unauthenticated', async (t) => {
  const { app } = await v2Api(t);
  const reply = await app.inject({ method: 'PATCH', url: '/api/core/v2/namespaces/default/events' });
  assert.equal(reply.statusCode, 405);
  assert.equal(reply.body, '');
});

test('an unknown path is a 404 with Sensu Go’s body', async (t) => {
  const { app } = await v2Api(t);
  const reply = await app.inject({ method: 'GET', url: '/api/core/v2/nothing-here' });
  assert.equal(reply.statusCode, 404);
  assert.deepEqual(reply.json(), { message: 'not found', code: 2 });
});

test('a body nested deeper than the limit is refused before any handler reads it', async (t) => {
  const { app, admin } = await v2Api(t);
  let deep: unknown = 'x';
  for (let i = 0; i < 200; i++) deep = { a: deep };
  const reply = await app.inject({
    method: 'PUT',
    url: '/api/core/v2/namespaces/default/checks/deep',
    headers: { authorization: admin, 'content-type': 'application/json' },
    payload: JSON.stringify({ metadata: { name: 'deep' }, command: 'true', interval: 10, x: deep }),
  });
  assert.equal(reply.statusCode, 400);
  assert.match(reply.json().message, /^JSON nested deeper than \d+ levels$/);
});

test('bad JSON keeps Fastify’s 400 with code 1, and a PATCH in a type nothing reads is a 400 naming merge patches', async (t) => {
  const { app, admin } = await v2Api(t);
  const bad = await app.inject({
    method: 'PUT',
    url: '/api/core/v2/namespaces/default/checks/c',
    headers: { authorization: admin, 'content-type': 'application/json' },
    payload: '{"metadata":',
  });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().code, 1);
  assert.equal(bad.headers['x-content-type-options'], 'nosniff');
  const patch = await app.inject({
    method: 'PATCH',
    url: '/api/core/v2/namespaces/default/checks/c',
    headers: { authorization: admin, 'content-type': 'text/plain' },
    payload: 'x',
  });
  assert.equal(patch.statusCode, 400);
  assert.match(patch.json().message, /merge-patch\+json/);
});

test('a DELETE that says it is JSON but carries no body is read as bodyless, as sensuctl sends it', async (t) => {
  const { app, admin } = await v2Api(t);
  const put = await app.inject({
    method: 'PUT',
    url: '/api/core/v2/namespaces/default/checks/gone',
    headers: { authorization: admin, 'content-type': 'application/json' },
    payload: { metadata: { name: 'gone' }, command: 'true', interval: 10 },
  });
  assert.equal(put.statusCode, 201, put.body);
  const reply = await app.inject({
    method: 'DELETE',
    url: '/api/core/v2/namespaces/default/checks/gone',
    headers: { authorization: admin, 'content-type': 'application/json' },
  });
  assert.equal(reply.statusCode, 204);
});

test('every core route family is registered: health, version, users, API keys, namespaces, RBAC, resources', async (t) => {
  const { app, admin } = await v2Api(t);
  for (const url of [
    '/health',
    '/version',
    '/api/core/v2/users',
    '/api/core/v2/apikeys',
    '/api/core/v2/namespaces',
    '/api/core/v2/clusterroles',
    '/api/core/v2/namespaces/default/handlers',
    '/api/core/v2/namespaces/default/silenced/subscriptions/linux',
  ]) {
    const reply = await app.inject({ method: 'GET', url, headers: { authorization: admin } });
    assert.equal(reply.statusCode, 200, `${url}: ${reply.body}`);
  }
});
