// Silencing an event is one lookup per Silenced entry. Before, each entry searched the entity's subscriptions once for
// every subscription of the check: an edit user's event of 28,000 of each, in a namespace of 40 silences, held the
// event loop for over a minute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../helpers/instance.js';
import { healthWhile } from '../helpers/liveness.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'silencing-host', address: '127.0.0.1', subscriptions: [] } } };
const SILENCES = 40;
const SUBSCRIPTIONS = 28_000;

test('an event with the most subscriptions a body holds is silenced by the right entries while /health keeps answering', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  // Entries for subscriptions nobody has, one for a subscription the entity and the check share, one for the entity.
  for (let i = 0; i < SILENCES; i++) assert.equal((await call(`${ns}/silenced`, 'POST', admin, { subscription: `other-${i}`, check: 'disk' })).status, 201);
  assert.equal((await call(`${ns}/silenced`, 'POST', admin, { subscription: 'linux', check: 'disk' })).status, 201);
  assert.equal((await call(`${ns}/silenced`, 'POST', admin, { subscription: 'entity:big', check: '*' })).status, 201);
  assert.equal((await call(`${ns}/silenced`, 'POST', admin, { subscription: 'c-0' })).status, 201);
  const names = (prefix: string) => [...Array.from({ length: SUBSCRIPTIONS }, (_, i) => `${prefix}-${i.toString(36)}`), 'linux'];
  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'big' }, subscriptions: names('e') },
    check: { metadata: { name: 'disk' }, subscriptions: names('c'), interval: 60, status: 2 },
  };
  const body = JSON.stringify(event);
  assert.ok(body.length < 512_000, `${body.length} bytes`);
  const post = fetch(`${ns}/events`, { method: 'POST', headers: { authorization: admin, 'content-type': 'application/json' }, body });
  const latencies = await healthWhile(v2, post);
  assert.equal((await post).status, 201);
  t.diagnostic(`${latencies.length} /health answers during the write, the slowest ${Math.round(Math.max(...latencies))} ms`);
  const stored = (await call(`${ns}/events/big/disk`, 'GET', admin)).body.check;
  // `c-0` is the check's, not the entity's: it silences nothing.
  assert.deepEqual([stored.is_silenced, [...stored.silenced].sort()], [true, ['entity:big:*', 'linux:disk']]);
});
