// Routes Sensu Go's API has beside plain CRUD: merge patches, check hooks, silenced lookups, the web UI's password
// form, 405 for a known path with another method, and the namespace list of a user bound in one namespace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'routes-host', address: '127.0.0.1', subscriptions: [] } } };
const MERGE = 'application/merge-patch+json';

// Bytes, not a string: fetch would label a string text/plain.
const patch = (url: string, authorization: string, body: string, type: string | null = MERGE) =>
  getJson(url, { method: 'PATCH', headers: { authorization, ...(type === null ? {} : { 'content-type': type }) }, body: Buffer.from(body) });

async function setUp(t: Parameters<typeof instanceFor>[0]) {
  const instance = await instanceFor(t, HOST);
  return { ...instance, admin: `Bearer ${await adminToken(instance.v2)}`, ns: `${instance.v2}/api/core/v2/namespaces/default` };
}

async function tokenOf(v2: string, username: string, password: string): Promise<string> {
  const basic = 'Basic ' + Buffer.from(`${username}:${password}`).toString('base64');
  const reply = await getJson(`${v2}/auth`, { headers: { authorization: basic } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return `Bearer ${reply.body.access_token as string}`;
}

// One instance for every case: each starts in seconds on a loaded machine.
test('v2 routes beside plain CRUD, as Sensu Go answers them', async (t) => {
  const { v2, admin, ns } = await setUp(t);
  await t.test('PATCH with a JSON merge patch: 200 with the patched resource, through the PUT path (validation, grants); other types 400', async () => {
    const check = { metadata: { name: 'c1', namespace: 'default' }, command: 'true', interval: 60, subscriptions: ['a'], timeout: 5 };
    assert.equal((await call(`${ns}/checks/c1`, 'PUT', admin, check)).status, 201);
    const patched = await patch(`${ns}/checks/c1`, admin, JSON.stringify({ interval: 30, timeout: null, metadata: { labels: { team: 'ops' } } }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.interval, 30);
    assert.equal(patched.body.timeout, 0, 'null removes a member (RFC 7386): served as the zero value, as every field is');
    assert.deepEqual(patched.body.subscriptions, ['a']);
    assert.deepEqual(patched.body.metadata.labels, { team: 'ops' });
    assert.deepEqual((await call(`${ns}/checks/c1`, 'GET', admin)).body, patched.body);
    // The merged resource is validated as a PUT would be: nothing is stored.
    assert.equal((await patch(`${ns}/checks/c1`, admin, JSON.stringify({ interval: 0 }))).status, 400);
    assert.equal((await call(`${ns}/checks/c1`, 'GET', admin)).body.interval, 30);
    const renamed = await patch(`${ns}/checks/c1`, admin, JSON.stringify({ metadata: { name: 'other' } }));
    assert.deepEqual([renamed.status, renamed.body.message], [400, 'the name of the resource (other) does not match the name in the URI (c1)']);
    assert.equal((await patch(`${ns}/checks/absent`, admin, '{}')).status, 404);
    // Sensu Go's answers to other content types; a body with no type is a merge patch.
    const json = await patch(`${ns}/checks/c1`, admin, '{"interval":31}', 'application/json');
    assert.deepEqual([json.status, json.body.message], [400, 'invalid Content-Type header: application/json.  Allowed values: application/merge-patch+json']);
    const xml = await patch(`${ns}/checks/c1`, admin, '<a/>', 'text/xml');
    assert.deepEqual([xml.status, xml.body.message], [400, 'invalid Content-Type header: text/xml.  Allowed values: application/merge-patch+json']);
    const jsonPatch = await patch(`${ns}/checks/c1`, admin, '[]', 'application/json-patch+json');
    assert.deepEqual([jsonPatch.status, jsonPatch.body.message], [400, 'JSON Patch is not supported yet. Allowed values: application/merge-patch+json']);
    assert.equal((await patch(`${ns}/checks/c1`, admin, '{"interval":32}', null)).status, 200);
    // Every kind Sensu Go patches, cluster-wide ones included; silences have no PATCH there either.
    assert.equal((await call(`${ns}/handlers/h1`, 'PUT', admin, { metadata: { name: 'h1', namespace: 'default' }, type: 'pipe', command: 'cat' })).status, 201);
    assert.equal((await patch(`${ns}/handlers/h1`, admin, '{"timeout":7}')).body.timeout, 7);
    assert.deepEqual((await patch(`${v2}/api/core/v2/namespaces/default`, admin, '{}')).body, { name: 'default' });
    const role = await patch(`${v2}/api/core/v2/clusterroles/view`, admin, '{"metadata":{"labels":{"a":"b"}}}');
    assert.deepEqual([role.status, role.body.metadata.labels], [200, { a: 'b' }]);
    assert.equal((await patch(`${ns}/silenced/a:b`, admin, '{}')).status, 405);
  });

  await t.test('a PATCH needs the update grant, and the patched resource the same grants as a PUT', async () => {
    assert.equal((await call(`${ns}/handlers/h1`, 'PUT', admin, { metadata: { name: 'h1', namespace: 'default' }, type: 'pipe', command: 'cat' })).status, 201);
    assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'viewer', password: 'viewer-pass', groups: [] })).status, 201);
    const binding = {
      metadata: { name: 'v', namespace: 'default' },
      role_ref: { type: 'ClusterRole', name: 'view' },
      subjects: [{ type: 'User', name: 'viewer' }],
    };
    assert.equal((await call(`${ns}/rolebindings/v`, 'PUT', admin, binding)).status, 201);
    const viewer = await tokenOf(v2, 'viewer', 'viewer-pass');
    assert.equal((await patch(`${ns}/handlers/h1`, viewer, '{"timeout":7}')).status, 403);
    // Patching the viewer's own binding to cluster-admin: refused as the PUT would be.
    assert.equal((await patch(`${ns}/rolebindings/v`, viewer, '{"role_ref":{"name":"cluster-admin"}}')).status, 403);
    assert.equal((await call(`${ns}/handlers/h1`, 'GET', admin)).body.timeout, 0);
  });

  await t.test('check hooks: PUT …/hooks/TYPE adds, DELETE …/hooks/TYPE/hook/HOOK removes; silenced lookups; 405 on a known path', async () => {
    assert.equal((await call(`${ns}/checks/c1`, 'PUT', admin, { metadata: { name: 'c1', namespace: 'default' }, command: 'true', interval: 60 })).status, 201);
    assert.equal((await call(`${ns}/checks/c1/hooks/critical`, 'PUT', admin, { critical: ['h1'] })).status, 201);
    assert.equal((await call(`${ns}/checks/c1/hooks/critical`, 'PUT', admin, { critical: ['h2', 'h1'] })).status, 201);
    assert.equal((await call(`${ns}/checks/c1/hooks/warning`, 'PUT', admin, { warning: ['h3'] })).status, 201);
    assert.deepEqual((await call(`${ns}/checks/c1`, 'GET', admin)).body.check_hooks, [{ critical: ['h1', 'h2'] }, { warning: ['h3'] }]);
    assert.equal((await call(`${ns}/checks/c1/hooks/warning/hook/h3`, 'DELETE', admin)).status, 204);
    assert.equal((await call(`${ns}/checks/c1/hooks/warning/hook/h3`, 'DELETE', admin)).status, 404);
    assert.deepEqual((await call(`${ns}/checks/c1`, 'GET', admin)).body.check_hooks, [{ critical: ['h1', 'h2'] }]);
    assert.equal((await call(`${ns}/checks/absent/hooks/critical`, 'PUT', admin, { critical: ['h1'] })).status, 404);
    assert.equal((await call(`${ns}/checks/c1/hooks/critical`, 'PUT', admin, { critical: 'h1' })).status, 400);
    for (const body of [{ subscription: 'web', check: 'c1' }, { subscription: 'web' }, { check: 'c1' }, { subscription: 'db', check: 'c2' }])
      assert.equal((await call(`${ns}/silenced`, 'POST', admin, { metadata: { namespace: 'default' }, ...body })).status, 201);
    const named = (reply: { body: { metadata: { name: string } }[] }) => reply.body.map((s) => s.metadata.name);
    assert.deepEqual(named(await call(`${ns}/silenced/subscriptions/web`, 'GET', admin)), ['web:*', 'web:c1']);
    assert.deepEqual(named(await call(`${ns}/silenced/checks/c1`, 'GET', admin)), ['*:c1', 'web:c1']);
    assert.deepEqual(named(await call(`${v2}/api/core/v2/silenced/checks/c2`, 'GET', admin)), ['db:c2']);
    assert.deepEqual((await call(`${ns}/silenced/checks/none`, 'GET', admin)).body, []);
    // A known path with another method: 405 with no body, as Sensu Go, even before authentication; unknown paths stay 404.
    for (const [method, url] of [
      ['POST', `${ns}/checks/c1`],
      ['DELETE', `${ns}/checks`],
      ['GET', `${v2}/api/core/v2/users/admin/change_password`],
    ] as const) {
      const reply = await call(url, method, null);
      assert.deepEqual([reply.status, reply.body], [405, null], `${method} ${url}`);
    }
    assert.equal((await call(`${v2}/api/core/v2/nonexistent`, 'POST', admin)).status, 404);
  });

  await t.test(
    "PUT /api/core/v2/users/NAME/change_password (the web UI's form) with the current password; a user bound in one namespace lists it",
    async () => {
      const users = `${v2}/api/core/v2/users`;
      assert.equal((await call(`${v2}/api/core/v2/namespaces/vr`, 'PUT', admin, { name: 'vr' })).status, 201);
      assert.equal((await call(`${v2}/api/core/v2/namespaces/vs`, 'PUT', admin, { name: 'vs' })).status, 201);
      for (const username of ['u1', 'u2']) assert.equal((await call(users, 'POST', admin, { username, password: 'password1', groups: [] })).status, 201);
      const binding = { metadata: { name: 'rb', namespace: 'vr' }, role_ref: { type: 'ClusterRole', name: 'view' }, subjects: [{ type: 'User', name: 'u1' }] };
      assert.equal((await call(`${v2}/api/core/v2/namespaces/vr/rolebindings/rb`, 'PUT', admin, binding)).status, 201);
      const u1 = await tokenOf(v2, 'u1', 'password1');
      const listed = await call(`${v2}/api/core/v2/namespaces`, 'GET', u1);
      assert.deepEqual([listed.status, listed.body], [200, [{ name: 'vr' }]]);
      assert.equal((await call(`${v2}/api/core/v2/namespaces`, 'GET', admin)).body.length, 3);
      assert.deepEqual((await call(`${v2}/api/core/v2/namespaces/vr`, 'GET', u1)).body, { name: 'vr' });
      assert.equal((await call(`${v2}/api/core/v2/namespaces/vs`, 'GET', u1)).status, 403);
      assert.equal((await call(`${v2}/api/core/v2/namespaces/absent`, 'GET', u1)).status, 403);
      assert.equal((await call(`${v2}/api/core/v2/namespaces/absent`, 'GET', admin)).status, 404);
      // Nothing bound anywhere: nothing to list.
      assert.equal((await call(`${v2}/api/core/v2/namespaces`, 'GET', await tokenOf(v2, 'u2', 'password1'))).status, 403);
      const change = (token: string, name: string, body: unknown) => call(`${users}/${name}/change_password`, 'PUT', token, body);
      assert.equal((await change(u1, 'u1', { password: 'wrongpass', password_new: 'password2' })).status, 400);
      assert.equal((await change(u1, 'u2', { password: 'password1', password_new: 'password2' })).status, 403);
      assert.equal((await change(u1, 'u1', { password: 'password1', password_new: 'password2' })).status, 201);
      await tokenOf(v2, 'u1', 'password2');
    },
  );
});
