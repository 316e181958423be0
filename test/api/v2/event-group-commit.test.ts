// v2 event writes arriving together share one transaction: each commits or fails alone, 201 means readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../../helpers/instance.js';
import { adminToken, call } from './v2-helpers.js';

const event = (entity: string, check: string, output: string, status = 1) => ({
  entity: { entity_class: 'proxy', metadata: { name: entity } },
  check: { metadata: { name: check }, publish: false, status, output },
});

test('v2 events: a PUT refused over the quota in a group leaves nothing behind; its neighbours commit and read back at once', async (t) => {
  const { v2 } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'group-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checkbridge.json': { checkbridge: { store_quota: 393216 } },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  for (let i = 0; i < 8; i++) assert.equal((await call(`${ns}/events/small-${i}/c`, 'PUT', auth, event(`small-${i}`, 'c', 'first'))).status, 201);
  // Fill the store until an event no longer fits.
  let refused = false;
  for (let i = 0; i < 100 && !refused; i++)
    refused = (await call(`${ns}/events/filler/c${i}`, 'PUT', auth, event('filler', `c${i}`, 'x'.repeat(16_000)))).status === 507;
  assert.ok(refused, 'the quota was reached');
  // Room for small writes again, not for a big one.
  for (let i = 0; i < 4; i++) assert.equal((await call(`${ns}/events/filler/c${i}`, 'DELETE', auth)).status, 204);

  // Sent together: one event too big for the store, about an entity it would create, beside small updates.
  const [big, ...small] = await Promise.all([
    call(`${ns}/events/overflow-host/c`, 'PUT', auth, event('overflow-host', 'c', 'y'.repeat(200_000))),
    ...Array.from({ length: 8 }, (_, i) => call(`${ns}/events/small-${i}/c`, 'PUT', auth, event(`small-${i}`, 'c', 'again', 0))),
  ]);
  assert.equal(big!.status, 507);
  assert.match(big!.body.message, /393216 bytes/);
  assert.deepEqual(
    small.map((r) => r.status),
    Array(8).fill(201),
    'the neighbours are not failed with it',
  );
  // The refused event's proxy entity was undone with it.
  assert.equal((await call(`${ns}/entities/overflow-host`, 'GET', auth)).status, 404);
  assert.equal((await call(`${ns}/events/overflow-host/c`, 'GET', auth)).status, 404);
  for (let i = 0; i < 8; i++) {
    const read = await call(`${ns}/events/small-${i}/c`, 'GET', auth);
    assert.deepEqual([read.status, read.body.check.output, read.body.check.history.length], [200, 'again', 2]);
  }
});

test('v2 events: PUTs sent together are each readable as soon as they are answered, and the entity limit counts the group', async (t) => {
  const { v2 } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'group-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checkbridge.json': { checkbridge: { entity_limit: 5 } },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  // The client counts as one entity: four proxies fit, whichever four come first.
  const replies = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(`${ns}/events/proxy-${i}/c`, 'PUT', auth, event(`proxy-${i}`, 'c', `out ${i}`)).then(async (reply) => ({
        i,
        status: reply.status,
        read: await call(`${ns}/events/proxy-${i}/c`, 'GET', auth),
      })),
    ),
  );
  const created = replies.filter((r) => r.status === 201);
  assert.equal(created.length, 4);
  assert.deepEqual(
    replies.filter((r) => r.status !== 201).map((r) => r.status),
    Array(6).fill(402),
  );
  for (const { i, read } of created) assert.deepEqual([read.status, read.body.check.output], [200, `out ${i}`]);
  const entities = await call(`${ns}/entities`, 'GET', auth);
  assert.equal(entities.body.filter((e: { metadata: { name: string } }) => e.metadata.name.startsWith('proxy-')).length, 4);
});
