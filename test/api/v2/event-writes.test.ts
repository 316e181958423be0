import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance } from '../../helpers/instance.js';
import { makeTree, removeTree, writeTree } from '../../helpers/tree.js';
import { adminToken, call } from './v2-helpers.js';

test('v2 event writes: POST replaces as Sensu Go does, silencing from v2 Silenced entries, entity_class refused by name', async (t) => {
  const root = makeTree({});
  writeTree(root, { 'conf.d/client.json': { client: { name: 'agent-1', address: '127.0.0.1', subscriptions: ['linux'] } } });
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const get = async (entity: string, check: string) => (await call(`${ns}/events/${entity}/${check}`, 'GET', auth)).body;
  const nowS = Math.floor(Date.now() / 1000);

  // Sensu Go's POST /events calls the same CreateOrReplace as PUT: an existing event is updated, never refused.
  const event = (status: number) => ({
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' }, subscriptions: ['linux'] },
    check: { metadata: { name: 'disk' }, subscriptions: ['linux'], interval: 60, status },
  });
  assert.equal((await call(`${ns}/events`, 'POST', auth, event(2))).status, 201);
  assert.equal((await call(`${ns}/events`, 'POST', auth, event(0))).status, 201, 'POST of an existing event');
  assert.equal((await call(`${ns}/events/web-1/disk`, 'POST', auth, event(1))).status, 201);
  assert.deepEqual(
    (await get('web-1', 'disk')).check.history.map((h: { status: number }) => h.status),
    [2, 0, 1],
  );
  assert.equal((await get('web-1', 'disk')).check.is_silenced, false);

  // Silenced entries: by a subscription the entity and the check share, by entity:name; not before begin, not after expire_at.
  const silence = (name: string, body: object) => call(`${ns}/silenced/${name}`, 'PUT', auth, { metadata: { name }, ...body });
  assert.equal((await silence('linux:disk', { subscription: 'linux', check: 'disk', begin: nowS - 10 })).status, 201);
  assert.equal((await silence('entity:web-1:disk', { subscription: 'entity:web-1', check: 'disk' })).status, 201);
  assert.equal((await silence('entity:web-2:cpu', { subscription: 'entity:web-2', check: 'cpu', begin: nowS + 3600 })).status, 201);
  assert.equal((await silence('linux:cpu', { subscription: 'linux', check: 'cpu', begin: nowS - 600, expire_at: nowS - 60 })).status, 201);
  assert.equal((await silence('windows:disk', { subscription: 'windows', check: 'disk' })).status, 201);
  assert.equal((await call(`${ns}/events/web-1/disk`, 'PUT', auth, event(2))).status, 201);
  const silenced = (await get('web-1', 'disk')).check;
  assert.equal(silenced.is_silenced, true);
  assert.deepEqual([...silenced.silenced].sort(), ['entity:web-1:disk', 'linux:disk']);
  const cpu = {
    entity: { entity_class: 'proxy', metadata: { name: 'web-2' }, subscriptions: ['linux'] },
    check: { metadata: { name: 'cpu' }, subscriptions: ['linux'], interval: 60, status: 2 },
  };
  assert.equal((await call(`${ns}/events/web-2/cpu`, 'PUT', auth, cpu)).status, 201);
  assert.deepEqual(
    [(await get('web-2', 'cpu')).check.is_silenced, (await get('web-2', 'cpu')).check.silenced],
    [false, undefined],
    'not begun, expired (an empty list is omitted, as Sensu Go does)',
  );
  const filtered = await call(`${v2}/api/core/v2/events?fieldSelector=${encodeURIComponent('event.check.is_silenced == true')}`, 'GET', auth);
  assert.deepEqual(
    (filtered.body as any[]).map((e) => e.entity.metadata.name),
    ['web-1'],
  );

  // entity_class: agent, proxy, service or backend; anything else is a 400 naming the field, on POST and PUT.
  for (const [method, url] of [
    ['POST', `${ns}/events`],
    ['PUT', `${ns}/events/web-3/disk`],
  ]) {
    const reply = await call(url!, method!, auth, {
      entity: { entity_class: 'router', metadata: { name: 'web-3' } },
      check: { metadata: { name: 'disk' }, interval: 60 },
    });
    assert.equal(reply.status, 400, method);
    assert.match(reply.body.message, /entity_class must be one of agent, proxy, service, backend \(got "router"\)/);
  }
  for (const entityClass of ['agent', 'service', 'backend']) {
    const reply = await call(`${ns}/events/web-${entityClass}/disk`, 'PUT', auth, {
      entity: { entity_class: entityClass, metadata: { name: `web-${entityClass}` } },
      check: { metadata: { name: 'disk' }, interval: 60 },
    });
    assert.equal(reply.status, 201, entityClass);
  }
  assert.equal((await get('web-3', 'disk')).code, 2, 'nothing stored for a refused class');
});
