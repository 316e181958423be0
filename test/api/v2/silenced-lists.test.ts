// Sensu Go's silenced lookups by subscription and by check, on a real SQLite store through the v2 API.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { v2App } from '../../helpers/v2-api.js';

/** The API with silences: linux:cpu, linux:* and *:cpu in default, windows:cpu in prod. */
async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const authorization = `Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`;
  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/prod', {})).statusCode, 201);
  for (const [ns, silence] of [
    ['default', { subscription: 'linux', check: 'cpu' }],
    ['default', { subscription: 'linux' }],
    ['default', { check: 'cpu' }],
    ['prod', { subscription: 'windows', check: 'cpu' }],
  ] as const)
    assert.equal((await admin('POST', `/api/core/v2/namespaces/${ns}/silenced`, silence)).statusCode, 201);
  const names = async (url: string) => {
    const reply = await admin('GET', url);
    assert.equal(reply.statusCode, 200, reply.body);
    return (reply.json() as { metadata: { namespace: string; name: string } }[]).map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
  };
  return { names };
}

test('by subscription: the silences of exactly that subscription in the namespace', async (t) => {
  const { names } = await v2Api(t);
  assert.deepEqual(await names('/api/core/v2/namespaces/default/silenced/subscriptions/linux'), ['default/linux:*', 'default/linux:cpu']);
  assert.deepEqual(await names('/api/core/v2/namespaces/prod/silenced/subscriptions/linux'), []);
});

test('by check in one namespace, and by check in every namespace', async (t) => {
  const { names } = await v2Api(t);
  assert.deepEqual(await names('/api/core/v2/namespaces/default/silenced/checks/cpu'), ['default/*:cpu', 'default/linux:cpu']);
  assert.deepEqual(await names('/api/core/v2/silenced/checks/cpu'), ['default/*:cpu', 'default/linux:cpu', 'prod/windows:cpu']);
});

test('a namespace that does not exist has none, and entries are served with every field', async (t) => {
  const { names } = await v2Api(t);
  assert.deepEqual(await names('/api/core/v2/namespaces/nowhere/silenced/checks/cpu'), []);
});
