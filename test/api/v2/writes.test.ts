// Writes answered as Sensu Go 6.12 answers them: asset names with `/`, names `.` and `..`, a garbage continue token,
// entity writes (200 with the entity, agent-managed ones refused) and an entity's events deleted with it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, type Instance } from '../../helpers/instance.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { adminToken, call } from './v2-helpers.js';

let instance: Instance;
let root: string;
let auth: string;
let ns: string;

before(async () => {
  root = makeTree({ 'conf.d/client.json': { client: { name: 'writes-host', address: '127.0.0.1', subscriptions: [] } } });
  instance = await startInstance(root);
  auth = `Bearer ${await adminToken(instance.v2)}`;
  ns = `${instance.v2}/api/core/v2/namespaces/default`;
});

after(async () => {
  await instance.daemon.stop('SIGKILL');
  removeTree(root);
});

const SOURCE = { url: 'https://assets.example/check-cpu-usage.tar.gz', sha512: 'a'.repeat(128) };
const names = (items: { metadata: { name: string } }[]) => items.map((i) => i.metadata.name);

test('asset names with a slash (Bonsai namespace/name): PUT by the encoded name, POST, GET, list, runtime_assets, DELETE', async () => {
  const put = await call(`${ns}/assets/sensu%2Fcheck-cpu-usage`, 'PUT', auth, { metadata: { name: 'sensu/check-cpu-usage' }, ...SOURCE });
  assert.equal(put.status, 201, JSON.stringify(put.body));
  assert.equal((await call(`${ns}/assets`, 'POST', auth, { metadata: { name: 'sensu/sensu-slack-handler' }, ...SOURCE })).status, 201);
  const got = await call(`${ns}/assets/sensu%2Fcheck-cpu-usage`, 'GET', auth);
  assert.deepEqual([got.status, got.body.metadata.name, got.body.url], [200, 'sensu/check-cpu-usage', SOURCE.url]);
  assert.deepEqual(names((await call(`${ns}/assets`, 'GET', auth)).body), ['sensu/check-cpu-usage', 'sensu/sensu-slack-handler']);
  for (const kind of ['checks', 'hooks', 'handlers', 'mutators']) {
    const body = { runtime_assets: ['sensu/check-cpu-usage'], command: 'check-cpu-usage', interval: 60, type: 'pipe', timeout: 10 };
    const reply = await call(`${ns}/${kind}/uses-bonsai`, 'PUT', auth, body);
    assert.equal(reply.status, 201, `${kind}: ${JSON.stringify(reply.body)}`);
  }
  assert.equal((await call(`${ns}/assets/sensu%2Fsensu-slack-handler`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${ns}/assets/sensu%2Fsensu-slack-handler`, 'GET', auth)).status, 404);
  // The name is data: parts that a path could resolve are refused, and an encoded slash goes to assets alone.
  for (const name of ['a/../b', '/abs', 'a//b', 'sensu/..', './x']) {
    const reply = await call(`${ns}/assets`, 'POST', auth, { metadata: { name }, ...SOURCE });
    assert.equal(reply.status, 400, name);
    assert.match(reply.body.message, /no part between slashes may be empty, \. or \.\./);
  }
  assert.equal((await call(`${ns}/checks/a%2Fb`, 'PUT', auth, { command: 'true', interval: 60 })).status, 400);
  assert.equal((await call(`${ns}/checks/bad`, 'PUT', auth, { command: 'true', interval: 60, runtime_assets: ['a/../b'] })).status, 400);
});

test('names . and .. are refused at creation: nothing is listed that could be neither read nor deleted', async () => {
  for (const name of ['.', '..']) {
    const check = await call(`${ns}/checks`, 'POST', auth, { metadata: { name }, command: 'true', interval: 60 });
    assert.equal(check.status, 400, `check ${name}`);
    assert.match(check.body.message, /not \. or \.\./);
    assert.equal((await call(`${instance.v2}/api/core/v2/namespaces`, 'POST', auth, { name })).status, 400, `namespace ${name}`);
    assert.equal((await call(`${instance.v2}/api/core/v2/clusterroles`, 'POST', auth, { metadata: { name }, rules: [] })).status, 400);
    const event = { entity: { metadata: { name }, entity_class: 'proxy' }, check: { metadata: { name: 'c' }, status: 0, interval: 60 } };
    const refused = await call(`${ns}/events`, 'POST', auth, event);
    assert.equal(refused.status, 400, `entity ${name}`);
    assert.match(refused.body.message, /^entity is invalid: entity name must be 1 to 255 letters, digits, _ \. - : \(not \. or \.\.\)$/);
  }
  assert.deepEqual(
    names((await call(`${ns}/checks`, 'GET', auth)).body).filter((n) => n === '.' || n === '..'),
    [],
  );
});

test('a continue token that is not base64url restarts the list, as in Sensu Go', async () => {
  for (const name of ['page-a', 'page-b'])
    assert.equal((await call(`${ns}/filters/${name}`, 'PUT', auth, { action: 'allow', expressions: ['true'] })).status, 201);
  const first = await call(`${ns}/filters?limit=1`, 'GET', auth);
  assert.deepEqual(names(first.body), ['page-a']);
  for (const token of ['not*base64', '%FF%FE', 'a']) {
    const restarted = await call(`${ns}/filters?limit=1&continue=${token}`, 'GET', auth);
    assert.deepEqual([restarted.status, names(restarted.body)], [200, ['page-a']], token);
  }
  const next = await call(`${ns}/filters?limit=1&continue=${first.headers.get('sensu-continue')}`, 'GET', auth);
  assert.deepEqual(names(next.body), ['page-b']);
});

test('entity PUT and POST answer 200 with the entity; one its agent manages is refused (409)', async () => {
  const put = await call(`${ns}/entities/web-1`, 'PUT', auth, { metadata: { name: 'web-1' }, entity_class: 'proxy', subscriptions: ['web'] });
  assert.deepEqual([put.status, put.body.metadata.name, put.body.entity_class], [200, 'web-1', 'proxy']);
  assert.deepEqual(
    put.body.subscriptions.filter((s: string) => s === 'web'),
    ['web'],
  );
  const posted = await call(`${ns}/entities`, 'POST', auth, { metadata: { name: 'web-2' }, entity_class: 'proxy' });
  assert.deepEqual([posted.status, posted.body.metadata.name], [200, 'web-2']);
  const labels = { 'sensu.io/managed_by': 'sensu-agent' };
  const managed = await call(`${ns}/entities/web-3`, 'PUT', auth, { metadata: { name: 'web-3', labels }, entity_class: 'agent' });
  assert.deepEqual([managed.status, managed.body.message], [409, 'entity is managed by its agent']);
  // An agent entity stored with the label (as its agent reports it; POST does not look) is not replaced through the API.
  assert.equal((await call(`${ns}/entities`, 'POST', auth, { metadata: { name: 'agent-1', labels }, entity_class: 'agent' })).status, 200);
  const replaced = await call(`${ns}/entities/agent-1`, 'PUT', auth, { metadata: { name: 'agent-1' }, entity_class: 'agent' });
  assert.deepEqual([replaced.status, replaced.body.message], [409, 'entity is managed by its agent']);
});

test('silences as Sensu Go stores them: named subscription:check whatever the body or URL says; one already expired is not stored', async () => {
  const given = await call(`${ns}/silenced/my-silence`, 'PUT', auth, { metadata: { name: 'my-silence' }, subscription: 'linux', check: 'disk' });
  assert.equal(given.status, 201);
  assert.equal((await call(`${ns}/silenced/my-silence`, 'GET', auth)).status, 404);
  assert.equal((await call(`${ns}/silenced/linux:disk`, 'GET', auth)).body.subscription, 'linux');
  assert.equal((await call(`${ns}/silenced`, 'POST', auth, { metadata: { name: 'other' }, check: 'cpu' })).status, 201);
  assert.equal((await call(`${ns}/silenced/*:cpu`, 'GET', auth)).status, 200);
  const now = Math.floor(Date.now() / 1000);
  assert.equal((await call(`${ns}/silenced`, 'POST', auth, { subscription: 'old', begin: now - 7200, expire: 60 })).status, 201);
  assert.equal((await call(`${ns}/silenced/old:*`, 'GET', auth)).status, 404);
  assert.deepEqual(names((await call(`${ns}/silenced`, 'GET', auth)).body), ['*:cpu', 'linux:disk']);
});

test('deleting an entity deletes its events (embedded store)', async () => {
  const event = (check: string) => ({
    entity: { metadata: { name: 'e1' }, entity_class: 'proxy' },
    check: { metadata: { name: check }, status: 1, interval: 60 },
  });
  for (const check of ['k1', 'k2']) assert.equal((await call(`${ns}/events/e1/${check}`, 'PUT', auth, event(check))).status, 201);
  assert.equal((await call(`${ns}/events/e1/k1`, 'GET', auth)).status, 200);
  assert.equal((await call(`${ns}/entities/e1`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${ns}/events/e1/k1`, 'GET', auth)).status, 404);
  assert.deepEqual((await call(`${ns}/events/e1`, 'GET', auth)).body, []);
});
