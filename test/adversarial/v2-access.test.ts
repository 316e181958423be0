import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { rawRequest, pathVariants, type RawReply } from '../helpers/raw-http.js';

const HOST = { 'conf.d/client.json': { client: { name: 'access-host', address: '127.0.0.1', subscriptions: [] } } };
const NS = '/api/core/v2/namespaces/default';
const event = (entity: string, check: string) => ({
  entity: { metadata: { name: entity, namespace: 'default' }, entity_class: 'proxy' },
  check: { metadata: { name: check, namespace: 'default' }, status: 1, interval: 60, output: 'x' },
});
const RESOURCES = ['handlers', 'pipelines', 'mutators', 'checks', 'hooks', 'filters', 'entities', 'silenced', 'roles', 'rolebindings'];
const OWN_BINDING = { subjects: [{ type: 'User', name: 'intruder' }], role_ref: { type: 'ClusterRole', name: 'cluster-admin' } };
type Route = { method: string; path: string; body?: unknown };
/** Routes only an admin may use: another user's password, cluster roles and bindings, role bindings. */
const ADMIN_ONLY: Route[] = [
  { method: 'PUT', path: '/api/core/v2/users/admin/password', body: { password: 'taken-over-1' } },
  { method: 'GET', path: '/api/core/v2/clusterroles' },
  { method: 'GET', path: '/api/core/v2/clusterroles/cluster-admin' },
  { method: 'PUT', path: '/api/core/v2/clusterroles/view', body: { rules: [{ verbs: ['*'], resources: ['*'] }] } },
  { method: 'DELETE', path: '/api/core/v2/clusterroles/cluster-admin' },
  { method: 'GET', path: '/api/core/v2/clusterrolebindings' },
  { method: 'POST', path: '/api/core/v2/clusterrolebindings', body: { metadata: { name: 'intruder' }, ...OWN_BINDING } },
  { method: 'PUT', path: '/api/core/v2/clusterrolebindings/intruder', body: OWN_BINDING },
  { method: 'DELETE', path: '/api/core/v2/clusterrolebindings/cluster-admin' },
  { method: 'PUT', path: `${NS}/rolebindings/intruder`, body: OWN_BINDING },
];

/** An event and a handler named `kept`, which no refused request may change. */
async function seedKept(v2: string, token: string): Promise<void> {
  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'PUT', token, event('victim', 'kept'))).status, 201);
  assert.equal((await call(`${v2}${NS}/handlers/kept`, 'PUT', token, { type: 'pipe', command: 'true' })).status, 201);
}

/** An API key (`Key …`) for a new user `username` whose group `group` is bound (a binding named after the group) to the cluster role `role`. */
async function keyFor(v2: string, token: string, username: string, group: string, role: string): Promise<string> {
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', token, { username, password: `${username}-pass-1`, groups: [group] })).status, 201);
  assert.equal(
    (
      await call(`${v2}/api/core/v2/clusterrolebindings/${group}`, 'PUT', token, {
        subjects: [{ type: 'Group', name: group }],
        role_ref: { type: 'ClusterRole', name: role },
      })
    ).status,
    201,
  );
  return `Key ${(await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username })).headers.get('location')!.split('/').pop()}`;
}

/** A 403 in the v2 error shape (code 4) whose message matches `message`. */
function assertForbidden(reply: RawReply, where: string, message: RegExp): void {
  assert.equal(reply.status, 403, `${where}: ${reply.text}`);
  assert.equal(JSON.parse(reply.text).code, 4);
  assert.match(JSON.parse(reply.text).message, message);
}

/** Every other spelling of `route` sent as `who` (with `headers`): each refused (400 unsafe, `refusal`, or 404); their statuses. */
async function variantsRefused(v2: string, { method, path, body }: Route, headers: Record<string, string>, refusal: number, who: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const target of pathVariants(v2, path)) {
    const reply = await rawRequest(v2, method, target, headers, body);
    statuses.push(reply.status);
    assert.ok([400, refusal, 404].includes(reply.status), `${method} ${target} ${who} answered ${reply.status}: ${reply.text}`);
  }
  return statuses;
}

/** Every v2 route, with a body where it takes one: the matrix below tries each through every spelling. */
function routes(): Route[] {
  const list: Route[] = [
    { method: 'GET', path: '/api/core/v2/events' },
    { method: 'GET', path: `${NS}/events` },
    { method: 'GET', path: `${NS}/events/victim` },
    { method: 'GET', path: `${NS}/events/victim/kept` },
    { method: 'HEAD', path: `${NS}/events/victim/kept` },
    { method: 'DELETE', path: `${NS}/events/victim/kept` },
    { method: 'PUT', path: `${NS}/events/victim/intruder`, body: event('victim', 'intruder') },
    { method: 'POST', path: `${NS}/events/victim/intruder`, body: event('victim', 'intruder') },
    { method: 'POST', path: `${NS}/events`, body: event('victim', 'intruder') },
    { method: 'GET', path: '/api/core/v2/namespaces' },
    { method: 'GET', path: '/api/core/v2/namespaces/default' },
    { method: 'PUT', path: '/api/core/v2/namespaces/intruder', body: { name: 'intruder' } },
    { method: 'DELETE', path: '/api/core/v2/namespaces/default' },
    { method: 'GET', path: '/api/core/v2/apikeys' },
    { method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'admin' } },
    { method: 'POST', path: '/api/core/v2/users', body: { username: 'intruder', password: 'intruder-pass', groups: ['cluster-admins'] } },
    { method: 'GET', path: '/api/core/v2/users/admin' },
    ...ADMIN_ONLY,
  ];
  for (const kind of RESOURCES) {
    list.push({ method: 'GET', path: `${NS}/${kind}` }, { method: 'GET', path: `${NS}/${kind}/kept` }, { method: 'DELETE', path: `${NS}/${kind}/kept` });
    list.push({
      method: 'PUT',
      path: `${NS}/${kind}/intruder`,
      body: { metadata: { name: 'intruder' }, type: 'pipe', command: 'touch /tmp/pwned', entity_class: 'proxy', action: 'allow', expressions: [], check: 'x' },
    });
    list.push({
      method: 'POST',
      path: `${NS}/${kind}`,
      body: { metadata: { name: 'intruder' }, type: 'pipe', command: 'touch /tmp/pwned', entity_class: 'proxy', action: 'allow', expressions: [], check: 'x' },
    });
  }
  return list;
}

test('v2 API: no spelling of any route reaches a handler without credentials, and nothing changes', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const token = `Bearer ${await adminToken(v2)}`;
  await seedKept(v2, token);

  const answered = new Map<number, number>();
  for (const route of routes()) {
    // The plain spelling is refused too: the matrix must not pass because every variant is a 404.
    const plain = await rawRequest(v2, route.method, route.path, {}, route.body);
    assert.equal(plain.status, 401, `${route.method} ${route.path} without credentials`);
    for (const status of await variantsRefused(v2, route, {}, 401, 'without credentials')) answered.set(status, (answered.get(status) ?? 0) + 1);
  }
  // Both kinds of refusal happen: decoded spellings reach the route's own check (401), unsafe ones are refused (400).
  assert.ok((answered.get(401) ?? 0) > 0 && (answered.get(400) ?? 0) > 0, JSON.stringify([...answered]));

  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'GET', token)).status, 200, 'the event survived');
  assert.equal((await call(`${v2}${NS}/events/victim/intruder`, 'GET', token)).status, 404, 'no event was written');
  assert.equal((await call(`${v2}${NS}/handlers/kept`, 'GET', token)).status, 200, 'the handler survived');
  for (const kind of RESOURCES) assert.equal((await call(`${v2}${NS}/${kind}/intruder`, 'GET', token)).status, 404, `no ${kind} was written`);
  assert.equal((await call(`${v2}/api/core/v2/users/intruder`, 'GET', token)).status, 404, 'no user was created');
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/intruder`, 'GET', token)).status, 404, 'no binding was created');
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/cluster-admin`, 'GET', token)).status, 200, 'the admin binding survived');
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', token)).body.length, 0, 'no key was granted');
  assert.equal((await adminToken(v2)).length > 0, true, 'the admin password is unchanged');
  // The anonymous routes stay anonymous.
  assert.equal((await getJson(`${v2}/health`)).status, 200);
  assert.equal((await rawRequest(v2, 'GET', '/%68ealth')).status, 200);
});

test('v2 API: a non-admin cannot reach admin routes through any spelling', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const token = `Bearer ${await adminToken(v2)}`;
  // Alice's group may read and write monitoring resources everywhere (the built-in edit role), nothing cluster-wide.
  const aliceKey = await keyFor(v2, token, 'alice', 'dev', 'edit');
  const adminKeyId = (await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'admin' })).headers.get('location')!.split('/').pop()!;
  const admin = [
    { method: 'GET', path: '/api/core/v2/apikeys' },
    { method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'admin' } },
    { method: 'GET', path: `/api/core/v2/apikeys/${adminKeyId}` },
    { method: 'DELETE', path: `/api/core/v2/apikeys/${adminKeyId}` },
    { method: 'POST', path: '/api/core/v2/users', body: { username: 'mallory', password: 'mallory-pass-1', groups: ['cluster-admins'] } },
    ...ADMIN_ONLY,
  ];
  for (const route of admin) {
    const plain = await rawRequest(v2, route.method, route.path, { authorization: aliceKey }, route.body);
    assertForbidden(
      plain,
      `${route.method} ${route.path} as a non-admin`,
      /^unauthorized to perform action: user "alice" may not \w+ (apikeys|users|clusterroles|clusterrolebindings|rolebindings)/,
    );
    await variantsRefused(v2, route, { authorization: aliceKey }, 403, 'as a non-admin');
  }
  const keys = (await call(`${v2}/api/core/v2/apikeys`, 'GET', token)).body as unknown[];
  assert.equal(keys.length, 2, 'no key was granted or revoked');
  assert.equal((await call(`${v2}/api/core/v2/users/mallory`, 'GET', token)).status, 404);
  assert.equal((await call(`${v2}/api/core/v2/events`, 'GET', `Key ${adminKeyId}`)).status, 200, 'the admin key still works');
  // What a non-admin may do still works through the decoded spelling.
  assert.equal((await rawRequest(v2, 'GET', '/%61pi/core/v2/events', { authorization: aliceKey })).status, 200);
});

test('v2 API: a view user reads every namespaced route and is refused (403) every write and every cluster-wide route, in any spelling', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const token = `Bearer ${await adminToken(v2)}`;
  await seedKept(v2, token);
  const vera = await keyFor(v2, token, 'vera', 'viewers', 'view');
  // The view role reads monitoring resources and namespaces: not keys, users, roles or bindings, nor pipelines (as in Sensu Go).
  const unreadable = /\/(apikeys|users|clusterroles|clusterrolebindings|roles|rolebindings|pipelines)(\/|$)/;
  for (const route of routes()) {
    const { method, path, body } = route;
    const reads = (method === 'GET' || method === 'HEAD') && !unreadable.test(path);
    const plain = await rawRequest(v2, method, path, { authorization: vera }, body);
    if (reads) {
      assert.ok([200, 404].includes(plain.status), `${method} ${path} as a viewer answered ${plain.status}: ${plain.text}`);
      continue;
    }
    assertForbidden(plain, `${method} ${path} as a viewer`, /^unauthorized to perform action: user "vera" may not /);
    await variantsRefused(v2, route, { authorization: vera }, 403, 'as a viewer');
  }
  assert.equal((await call(`${v2}${NS}/events/victim/kept`, 'GET', token)).status, 200, 'the event survived');
  assert.equal((await call(`${v2}${NS}/events/victim/intruder`, 'GET', token)).status, 404, 'no event was written');
  for (const kind of RESOURCES) assert.equal((await call(`${v2}${NS}/${kind}/intruder`, 'GET', token)).status, 404, `no ${kind} was written`);
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/intruder`, 'GET', token)).status, 404, 'no binding was written');
  assert.equal((await call(`${v2}/api/core/v2/clusterrolebindings/cluster-admin`, 'GET', token)).status, 200, 'the admin binding survived');
  assert.deepEqual((await call(`${v2}/api/core/v2/clusterroles/view`, 'GET', token)).body.rules[0].verbs, ['get', 'list'], 'the view role is unchanged');
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', token)).body.length, 1, 'no key was granted');
  assert.equal((await adminToken(v2)).length > 0, true, 'the admin password is unchanged');
});
