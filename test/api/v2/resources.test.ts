// The generic resource routes on a real SQLite store: create, replace, patch, read, list and delete, with their checks.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { type V2ApiDeps } from '../../../src/api/v2/server.js';
import { missingNamespace } from '../../../src/api/v2/resources.js';
import { issueTokens } from '../../../src/api/v2/auth.js';
import { sqliteIntake } from '../../helpers/sqlite-intake.js';
import { v2App } from '../../helpers/v2-api.js';

const DEFAULT = '/api/core/v2/namespaces/default';
type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

async function v2Api(t: TestContext, extra: Partial<V2ApiDeps> = {}) {
  const { deps, store, app } = v2App(t, extra);
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const authorization = `Bearer ${(await issueTokens(deps, 'admin', ['cluster-admins'])).access_token}`;
  const admin = (method: Method, url: string, payload?: object | string) =>
    app.inject({
      method,
      url,
      headers: { authorization, 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
      ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
    });
  return { store, admin };
}

const handler = (name: string, extra: object = {}) => ({ metadata: { name, ...extra }, type: 'pipe', command: 'cat' });

test('a namespace that does not exist is named as Sensu Go’s store names it', (t) => {
  const { store } = sqliteIntake(t);
  store.resources.putResource('Namespace', '', 'prod', { name: 'prod' });
  assert.equal(missingNamespace(store.resources, 'prod'), null);
  assert.equal(missingNamespace(store.resources, 'nowhere'), 'the namespace nowhere does not exist');
});

test('POST creates once; PUT creates or replaces; the writer is recorded as creator', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('POST', `${DEFAULT}/handlers`, handler('cat'))).statusCode, 201);
  const again = await admin('POST', `${DEFAULT}/handlers`, handler('cat'));
  assert.equal(again.statusCode, 409);
  assert.equal(again.json().message, 'resource already exists');
  assert.equal((await admin('PUT', `${DEFAULT}/handlers/cat`, { ...handler('cat'), command: 'tee' })).statusCode, 201);
  const stored = (await admin('GET', `${DEFAULT}/handlers/cat`)).json();
  assert.equal(stored.command, 'tee');
  assert.equal(stored.metadata.namespace, 'default');
  assert.equal(stored.metadata.created_by, 'admin');
});

test('the URL names the resource: the body may leave name and namespace out, not contradict them', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${DEFAULT}/handlers/unnamed`, { type: 'pipe', command: 'cat' })).statusCode, 201);
  assert.equal((await admin('GET', `${DEFAULT}/handlers/unnamed`)).json().metadata.name, 'unnamed');
  const name = await admin('PUT', `${DEFAULT}/handlers/one`, handler('two'));
  assert.equal(name.json().message, 'the name of the resource (two) does not match the name of the URI (one)');
  const namespace = await admin('PUT', `${DEFAULT}/handlers/one`, handler('one', { namespace: 'prod' }));
  assert.equal(namespace.json().message, 'the namespace of the resource (prod) does not match the namespace of the URI (default)');
  const cluster = await admin('PUT', '/api/core/v2/clusterroles/r', {
    metadata: { name: 'r', namespace: 'default' },
    rules: [{ verbs: ['get'], resources: ['checks'] }],
  });
  assert.equal(cluster.json().message, 'clusterroles are cluster-wide: metadata.namespace must be empty');
});

test('a write into a namespace that does not exist is a 404; an invalid resource or name a 400', async (t) => {
  const { admin } = await v2Api(t);
  const missing = await admin('PUT', '/api/core/v2/namespaces/nowhere/handlers/cat', handler('cat'));
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().message, 'the namespace nowhere does not exist');
  assert.equal((await admin('PUT', `${DEFAULT}/handlers/bad`, { metadata: { name: 'bad' }, type: 'pipe', command: 7 })).statusCode, 400);
  assert.equal((await admin('POST', `${DEFAULT}/handlers`, handler('no spaces'))).statusCode, 400);
  const typed = await admin('PUT', `${DEFAULT}/checks/typed`, { metadata: { name: 'typed' }, command: 'true', interval: 'ten' });
  assert.equal(typed.statusCode, 400);
  assert.match(typed.json().message, /interval/);
});

test('PATCH merges into the stored resource and answers it; an unknown one is a 404', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${DEFAULT}/handlers/cat`, handler('cat', { labels: { team: 'a' } }))).statusCode, 201);
  const patched = await admin('PATCH', `${DEFAULT}/handlers/cat`, { metadata: { labels: { tier: 'b' } }, timeout: 30 });
  assert.equal(patched.statusCode, 200);
  assert.deepEqual(patched.json().metadata.labels, { team: 'a', tier: 'b' });
  assert.equal(patched.json().timeout, 30);
  assert.equal((await admin('PATCH', `${DEFAULT}/handlers/none`, { timeout: 1 })).statusCode, 404);
});

test('lists read one namespace, or every namespace in order of namespace and name', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', '/api/core/v2/namespaces/prod', {})).statusCode, 201);
  for (const [ns, name] of [
    ['prod', 'b'],
    ['default', 'z'],
    ['prod', 'a'],
  ])
    assert.equal((await admin('PUT', `/api/core/v2/namespaces/${ns}/handlers/${name}`, handler(name!))).statusCode, 201);
  const names = (reply: { json(): { metadata: { namespace: string; name: string } }[] }) =>
    reply.json().map((h) => `${h.metadata.namespace}/${h.metadata.name}`);
  assert.deepEqual(names(await admin('GET', '/api/core/v2/namespaces/prod/handlers')), ['prod/a', 'prod/b']);
  assert.deepEqual(names(await admin('GET', '/api/core/v2/handlers')), ['default/z', 'prod/a', 'prod/b']);
});

test('DELETE removes one, then answers 404', async (t) => {
  const { admin } = await v2Api(t);
  assert.equal((await admin('PUT', `${DEFAULT}/handlers/cat`, handler('cat'))).statusCode, 201);
  assert.equal((await admin('DELETE', `${DEFAULT}/handlers/cat`)).statusCode, 204);
  assert.equal((await admin('GET', `${DEFAULT}/handlers/cat`)).statusCode, 404);
  assert.equal((await admin('DELETE', `${DEFAULT}/handlers/cat`)).statusCode, 404);
});

test('an entity write answers 200 with the entity and tells its agent; a new one past the licence is refused', async (t) => {
  const written: string[] = [];
  let gate: string | null = null;
  const { admin } = await v2Api(t, { onEntityWritten: (ns, name) => written.push(`${ns}/${name}`), entityGate: () => gate });
  const entity = (name: string) => ({ metadata: { name }, entity_class: 'proxy' });
  const reply = await admin('PUT', `${DEFAULT}/entities/web-1`, entity('web-1'));
  assert.equal(reply.statusCode, 200);
  assert.equal(reply.json().metadata.name, 'web-1');
  assert.equal(reply.json().entity_class, 'proxy');
  assert.deepEqual(written, ['default/web-1']);
  gate = 'entity limit reached';
  const refused = await admin('PUT', `${DEFAULT}/entities/web-2`, entity('web-2'));
  assert.equal(refused.statusCode, 402);
  assert.equal(refused.json().message, 'entity limit reached');
  assert.equal((await admin('PUT', `${DEFAULT}/entities/web-1`, entity('web-1'))).statusCode, 200, 'an existing one is no new entity');
  const managed = await admin('PUT', `${DEFAULT}/entities/web-1`, {
    ...entity('web-1'),
    metadata: { name: 'web-1', labels: { 'sensu.io/managed_by': 'sensu-agent' } },
  });
  assert.equal(managed.statusCode, 409);
  assert.equal(managed.json().message, 'entity is managed by its agent');
});
