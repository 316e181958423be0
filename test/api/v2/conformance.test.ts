import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';

const NS = '/api/core/v2/namespaces/default';
import type { Json } from '../../../src/json.js';

/** A valid body of each namespaced kind, named `name`, with a label and one distinguishing field. */
const BODIES: Record<string, (name: string, team: string) => Json> = {
  checks: (name, team) => ({ metadata: { name, labels: { team } }, command: 'true', interval: 60, publish: true, subscriptions: [team] }),
  entities: (name, team) => ({ metadata: { name, labels: { team } }, entity_class: team === 'red' ? 'proxy' : 'agent', subscriptions: [team] }),
  handlers: (name, team) => ({
    metadata: { name, labels: { team } },
    type: team === 'red' ? 'pipe' : 'tcp',
    command: 'true',
    socket: { host: '127.0.0.1', port: 1 },
  }),
  hooks: (name, team) => ({ metadata: { name, labels: { team } }, command: 'true', timeout: 10 }),
  filters: (name, team) => ({ metadata: { name, labels: { team } }, action: team === 'red' ? 'allow' : 'deny', expressions: ['event.check.status == 0'] }),
  mutators: (name, team) => ({ metadata: { name, labels: { team } }, command: 'cat' }),
  // A silence is named subscription:check whatever the URL says (as in Sensu Go): `red:x-red`.
  silenced: (name, team) => ({ metadata: { name, labels: { team } }, subscription: team, check: name }),
  pipelines: (name, team) => ({ metadata: { name, labels: { team } }, workflows: [] }),
};
/** A field selector that picks the `red` one of each kind by something other than its name. */
const RED_FIELD: Record<string, string> = {
  checks: 'red in check.subscriptions',
  entities: 'entity.entity_class == proxy',
  handlers: 'handler.type == pipe',
  hooks: 'hook.name == x-red',
  filters: 'filter.action == allow',
  mutators: 'mutator.name == x-red',
  silenced: 'silenced.subscription == red',
  pipelines: 'pipeline.name == x-red',
};

// The instance's own legacy client is an entity of the default namespace's list (removed by the legacy API only).
const CLIENT = 'conformance-host';

/** Pages through `path` with `limit`, deleting every item as it is returned, as the official client's examples do. */
async function drainWhilePaging(base: string, path: string, auth: string, remove: (item: Json) => string): Promise<number> {
  let token: string | null = null;
  let seen = 0;
  for (let pages = 0; pages < 100; pages++) {
    const reply = await call(`${base}${path}?limit=7${token ? `&continue=${token}` : ''}`, 'GET', auth);
    assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    for (const item of reply.body as Json[]) {
      if (item.metadata?.name === CLIENT) continue;
      assert.equal((await call(`${base}${remove(item)}`, 'DELETE', auth)).status, 204);
      seen++;
    }
    token = reply.headers.get('sensu-continue');
    if (!token) break;
  }
  return seen;
}

test('v2 lists: paging while deleting visits every item once, on every list', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: CLIENT, address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const COUNT = 40;
  for (const [kind, body] of Object.entries(BODIES)) {
    for (let i = 0; i < COUNT; i++)
      assert.equal(
        (await call(`${v2}${NS}/${kind}/r${String(i).padStart(3, '0')}`, 'PUT', auth, body(`r${String(i).padStart(3, '0')}`, 'blue'))).status,
        // An entity write answers 200 with the entity, as in Sensu Go.
        kind === 'entities' ? 200 : 201,
        kind,
      );
    const seen = await drainWhilePaging(v2, `${NS}/${kind}`, auth, (item) => `${NS}/${kind}/${item.metadata.name}`);
    assert.equal(seen, COUNT, `${kind}: every item visited once`);
    const left = ((await call(`${v2}${NS}/${kind}`, 'GET', auth)).body as Json[]).map((r) => r.metadata.name);
    assert.deepEqual(left, kind === 'entities' ? [CLIENT] : [], `${kind}: all deleted`);
  }
  for (let i = 0; i < COUNT; i++) {
    const event = { entity: { metadata: { name: `e${i % 5}` }, entity_class: 'proxy' }, check: { metadata: { name: `c${i}` }, status: 1, interval: 60 } };
    assert.equal((await call(`${v2}${NS}/events/e${i % 5}/c${i}`, 'PUT', auth, event)).status, 201);
  }
  assert.equal(await drainWhilePaging(v2, `${NS}/events`, auth, (e) => `${NS}/events/${e.entity.metadata.name}/${e.check.metadata.name}`), COUNT, 'events');
  for (let i = 0; i < 20; i++) assert.equal((await call(`${v2}/api/core/v2/namespaces/ns${i}`, 'PUT', auth, {})).status, 201);
  // default cannot be deleted: drain the others only.
  let namespaces = 0;
  let token: string | null = null;
  do {
    const reply = await call(`${v2}/api/core/v2/namespaces?limit=6${token ? `&continue=${token}` : ''}`, 'GET', auth);
    for (const { name } of reply.body as Json[]) {
      namespaces++;
      if (name !== 'default') assert.equal((await call(`${v2}/api/core/v2/namespaces/${name}`, 'DELETE', auth)).status, 204);
    }
    token = reply.headers.get('sensu-continue');
  } while (token);
  assert.equal(namespaces, 21);
  for (let i = 0; i < 15; i++) assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'POST', auth, { username: 'admin' })).status, 201);
  const keys = new Set((await call(`${v2}/api/core/v2/apikeys`, 'GET', auth)).body.map((k: Json) => k.metadata.name));
  assert.equal(keys.size, 15);
});

test('v2 lists: fieldSelector and labelSelector on every resource, unknown fields refused', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: CLIENT, address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  for (const [kind, body] of Object.entries(BODIES)) {
    assert.equal((await call(`${v2}${NS}/${kind}/x-red`, 'PUT', auth, body('x-red', 'red'))).status, kind === 'entities' ? 200 : 201, kind);
    assert.equal((await call(`${v2}${NS}/${kind}/x-blue`, 'PUT', auth, body('x-blue', 'blue'))).status, kind === 'entities' ? 200 : 201, kind);
    const names = async (query: string) => {
      const reply = await call(`${v2}${NS}/${kind}?${query}`, 'GET', auth);
      assert.equal(reply.status, 200, `${kind} ${query}: ${JSON.stringify(reply.body)}`);
      return (reply.body as Json[]).map((r) => (kind === 'silenced' ? String(r.metadata.name).split(':')[1] : r.metadata.name));
    };
    assert.deepEqual(await names(`fieldSelector=${encodeURIComponent(RED_FIELD[kind]!)}`), ['x-red'], `${kind} field`);
    assert.deepEqual(await names(`labelSelector=${encodeURIComponent('team == blue')}`), ['x-blue'], `${kind} label`);
    const prefix = RED_FIELD[kind]!.split(' ')
      .find((w) => w.includes('.'))!
      .split('.')[0]!;
    assert.deepEqual(
      await names(`fieldSelector=${encodeURIComponent(`${prefix}.labels.team != red`)}`),
      kind === 'entities' ? [CLIENT, 'x-blue'] : ['x-blue'],
      `${kind} label field`,
    );
    const unknown = await call(`${v2}${NS}/${kind}?fieldSelector=${encodeURIComponent(`${prefix}.nonsense == 1`)}`, 'GET', auth);
    assert.equal(unknown.status, 400, kind);
    assert.match(unknown.body.message, /unknown field "\w+\.nonsense"/);
  }
  // Events, namespaces, users and keys take selectors too.
  const event = { entity: { metadata: { name: 'sel' }, entity_class: 'proxy' }, check: { metadata: { name: 'red-check' }, status: 2, interval: 60 } };
  assert.equal((await call(`${v2}${NS}/events/sel/red-check`, 'PUT', auth, event)).status, 201);
  assert.equal((await call(`${v2}${NS}/events?fieldSelector=${encodeURIComponent('event.check.status == 2')}`, 'GET', auth)).body.length, 1);
  assert.equal((await call(`${v2}${NS}/events?fieldSelector=${encodeURIComponent('event.check.bogus == 2')}`, 'GET', auth)).status, 400);
  assert.deepEqual((await call(`${v2}/api/core/v2/namespaces?fieldSelector=${encodeURIComponent('namespace.name == default')}`, 'GET', auth)).body, [
    { name: 'default' },
  ]);
  assert.equal((await call(`${v2}/api/core/v2/users`, 'PUT', auth, {})).status, 405, 'a known path, a method it does not take');
  assert.equal((await call(`${v2}/api/core/v2/users/dora`, 'PUT', auth, { username: 'dora', password: 'dora-pass-1', groups: ['ops'] })).status, 201);
  assert.deepEqual(
    (await call(`${v2}/api/core/v2/users?fieldSelector=${encodeURIComponent('ops in user.groups')}`, 'GET', auth)).body.map((u: Json) => u.username),
    ['dora'],
  );
});

test('v2 namespaces and users: default exists and stays; users listed, created or updated with PUT, disabled users cannot log in', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: CLIENT, address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  assert.deepEqual((await call(`${v2}/api/core/v2/namespaces/default`, 'GET', auth)).body, { name: 'default' });
  assert.deepEqual((await call(`${v2}/api/core/v2/namespaces`, 'GET', auth)).body, [{ name: 'default' }]);
  const refused = await call(`${v2}/api/core/v2/namespaces/default`, 'DELETE', auth);
  assert.equal(refused.status, 409);
  assert.match(refused.body.message, /default namespace cannot be deleted/);
  // A namespace that resources live in is not deleted, and the refusal names them.
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team`, 'PUT', auth, {})).status, 201);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team/checks/disk`, 'PUT', auth, { command: 'true', interval: 60, publish: true })).status, 201);
  const referenced = await call(`${v2}/api/core/v2/namespaces/team`, 'DELETE', auth);
  assert.equal(referenced.status, 409);
  assert.match(referenced.body.message, /CheckConfig disk/);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team/checks/disk`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team`, 'DELETE', auth)).status, 204);

  const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'PUT', auth, { username: 'erin', password: 'erin-pass-1', groups: ['dev'] })).status, 201);
  assert.equal(
    (await call(`${v2}/api/core/v2/users/erin`, 'PUT', auth, { username: 'erin', groups: ['dev', 'ops'] })).status,
    200,
    'update keeps the password',
  );
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('erin', 'erin-pass-1') })).status, 200);
  const users = (await call(`${v2}/api/core/v2/users`, 'GET', auth)).body as Json[];
  // `agent` is the Sensu Go agents' bootstrapped user, as Sensu Go seeds it.
  assert.deepEqual(
    users.map((u) => u.username),
    ['admin', 'agent', 'erin'],
  );
  assert.deepEqual(users[2], { username: 'erin', groups: ['dev', 'ops'], disabled: false });
  assert.ok(!JSON.stringify(users).includes('scrypt'), 'no password hash is ever shown');
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'PUT', auth, { username: 'other', password: 'erin-pass-1' })).status, 400);
  assert.equal((await call(`${v2}/api/core/v2/users/frank`, 'PUT', auth, { username: 'frank', password: 'short' })).status, 400);

  const erinToken = (await getJson(`${v2}/auth`, { headers: basic('erin', 'erin-pass-1') })).body.access_token;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'GET', `Bearer ${erinToken}`)).status, 403, 'only admins list users');
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'GET', `Bearer ${erinToken}`)).status, 200, 'a user reads themselves');
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'PUT', auth, { username: 'erin', disabled: true })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('erin', 'erin-pass-1') })).status, 401, 'disabled users cannot log in');
  assert.equal((await call(`${v2}/api/core/v2/events`, 'GET', `Bearer ${erinToken}`)).status, 401, 'and their sessions ended');
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'PUT', auth, { username: 'erin', disabled: false })).status, 200);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('erin', 'erin-pass-1') })).status, 200);
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${v2}/api/core/v2/users/erin`, 'GET', auth)).body.disabled, true, 'DELETE disables');
});
