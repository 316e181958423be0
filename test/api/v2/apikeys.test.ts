// API keys through the v2 API on a real SQLite store: who may mint one for whom, how keys are listed, read and revoked.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { hashApiKey } from '../../../src/auth/tokens.js';
import { v2App } from '../../helpers/v2-api.js';

const KEYS = '/api/core/v2/apikeys';

async function v2Api(t: TestContext) {
  const { deps, store, app } = v2App(t);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  store.resources.putUser('alice', { username: 'alice', groups: [] });
  store.resources.putUser('bob', { username: 'bob', groups: [] });
  store.resources.putUser('dir-dan', { username: 'dir-dan', groups: [], provider: 'acme-ldap' });
  const as = (authorization: string) => (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const admin = as(`Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`);
  const alice = as(`Bearer ${(await issueTokens(deps, 'alice', [])).access_token}`);
  return { store, admin, alice, as };
}

const keyOf = (location: string | undefined) => String(location).split('/').pop()!;

test('a key is minted for an existing local user, answered only by its Location, and acts as that user', async (t) => {
  const { admin, as } = await v2Api(t);
  const reply = await admin('POST', KEYS, { username: 'bob' });
  assert.equal(reply.statusCode, 201);
  assert.equal(reply.body, '');
  assert.match(String(reply.headers.location), /^\/api\/core\/v2\/apikeys\/[0-9a-f-]{36}$/);
  const bob = as(`Key ${keyOf(reply.headers.location as string)}`);
  assert.equal((await bob('GET', '/api/core/v2/users/bob')).json().username, 'bob');
});

test('a key needs a username of an existing user of the local provider', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('POST', KEYS, {})).json().message, 'username is required');
  assert.equal((await admin('POST', KEYS, { username: '' })).json().message, 'username is required');
  assert.equal((await admin('POST', KEYS, { username: 'ghost' })).json().message, 'user does not exist');
  const external = await admin('POST', KEYS, { username: 'dir-dan' });
  assert.equal(external.statusCode, 400);
  assert.equal(external.json().message, 'API keys are not supported for users of external authentication providers (acme-ldap)');
});

test('one allowed to mint keys mints them for themselves only; another user’s is a cluster admin’s', async (t) => {
  const { admin, alice } = await v2Api(t);
  assert.equal(
    (await admin('POST', '/api/core/v2/clusterroles', { metadata: { name: 'keys' }, rules: [{ verbs: ['*'], resources: ['apikeys'] }] })).statusCode,
    201,
  );
  const binding = { metadata: { name: 'keys' }, subjects: [{ type: 'User', name: 'alice' }], role_ref: { type: 'ClusterRole', name: 'keys' } };
  assert.equal((await admin('POST', '/api/core/v2/clusterrolebindings', binding)).statusCode, 201);
  assert.equal((await alice('POST', KEYS, { username: 'alice' })).statusCode, 201);
  const other = await alice('POST', KEYS, { username: 'bob' });
  assert.equal(other.statusCode, 403);
  assert.match(other.json().message, /user "alice" may not create an API key for user "bob"/);
});

test('keys are listed by an ID of their own; the key or the ID reads one, and either revokes it', async (t) => {
  const { store, admin, as } = await v2Api(t);
  const key = keyOf((await admin('POST', KEYS, { username: 'bob' })).headers.location as string);
  const listed = (await admin('GET', KEYS)).json() as { metadata: { name: string; created_by: string }; username: string; created_at: number }[];
  assert.equal(listed.length, 1);
  const id = listed[0]!.metadata.name;
  assert.notEqual(id, key);
  assert.equal(listed[0]!.metadata.created_by, 'admin');
  assert.equal(listed[0]!.username, 'bob');
  // The one who names the key sees it back as the name; by ID, the ID.
  assert.equal((await admin('GET', `${KEYS}/${key}`)).json().metadata.name, key);
  assert.equal((await admin('GET', `${KEYS}/${id}`)).json().metadata.name, id);
  assert.equal(store.resources.getApiKey(hashApiKey(key))?.hint, id, 'only the hash and the ID are kept');
  assert.equal((await admin('DELETE', `${KEYS}/${id}`)).statusCode, 204);
  assert.equal((await as(`Key ${key}`)('GET', '/api/core/v2/users/bob')).statusCode, 401);
  assert.equal((await admin('DELETE', `${KEYS}/${id}`)).statusCode, 404);
  assert.equal((await admin('GET', `${KEYS}/${key}`)).statusCode, 404);
});

test('a key from before IDs is listed by its 8-character hint with an ellipsis, which reads and revokes it', async (t) => {
  const { store, admin } = await v2Api(t);
  store.resources.putApiKey({ keyHash: hashApiKey('old-key'), username: 'bob', createdBy: 'admin', createdAt: 1_600_000_000, hint: 'a1b2c3d4' });
  const listed = (await admin('GET', KEYS)).json() as { metadata: { name: string } }[];
  assert.deepEqual(
    listed.map((k) => k.metadata.name),
    ['a1b2c3d4…'],
  );
  assert.equal((await admin('GET', `${KEYS}/${encodeURIComponent('a1b2c3d4…')}`)).json().username, 'bob');
  assert.equal((await admin('DELETE', `${KEYS}/a1b2c3d4`)).statusCode, 204);
  assert.equal(store.resources.getApiKey(hashApiKey('old-key')), null);
});
