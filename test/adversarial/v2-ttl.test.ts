// Hostile senders of v2 events with a ttl (server/v2-ttl.ts): a clock far ahead must not keep an event alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const CONF = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 3600 } } };

test('a v2 event stamped a day ahead, whose results stop, still gets its TTL event', { timeout: 60_000 }, async (t) => {
  const instance = await instanceFor(t, CONF);
  const auth = `Bearer ${await adminToken(instance.v2)}`;
  const url = `${instance.v2}/api/core/v2/namespaces/default/events/ahead-1/http`;
  const ahead = Math.floor(Date.now() / 1000) + 86_400;
  const body = {
    entity: { entity_class: 'proxy', metadata: { name: 'ahead-1' } },
    check: { metadata: { name: 'http' }, status: 0, output: 'fine', interval: 1, ttl: 5, executed: ahead },
    timestamp: ahead,
  };
  assert.equal((await call(url, 'PUT', auth, body)).status, 201);
  const reply = await eventually(
    () => call(url, 'GET', auth),
    (r) => /^Last check execution was -?\d+ seconds ago$/.test(r.body?.check?.output),
    20_000,
  );
  assert.deepEqual([reply.status, reply.body.check.status], [200, 1], JSON.stringify(reply.body));
});
