// v2 handlers share the legacy handlers' slots, so one that never ends (a mutator without
// a timeout, a handler with a huge one) would hold a slot for good: both end by checkbridge.handler_timeout at most.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

test('a v2 mutator without a timeout and a v2 handler with a timeout beyond checkbridge.handler_timeout both end at handler_timeout', async (t) => {
  const root = makeTree({
    'conf.d/config.json': { client: { name: 'v2-timeout-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { handler_timeout: 1 } },
  });
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${ns}/mutators/forever`, 'PUT', auth, { command: 'exec sleep 3600' })).status, 201);
  assert.equal((await call(`${ns}/handlers/mutated`, 'PUT', auth, { type: 'pipe', command: 'cat', mutator: 'forever' })).status, 201);
  assert.equal((await call(`${ns}/handlers/slow`, 'PUT', auth, { type: 'pipe', command: 'exec sleep 3600', timeout: 3600 })).status, 201);
  for (const handler of ['mutated', 'slow']) {
    const body = {
      entity: { entity_class: 'proxy', metadata: { name: handler } },
      check: { metadata: { name: 'c' }, interval: 60, status: 2, output: 'x', handlers: [handler] },
    };
    assert.equal((await call(`${ns}/events/${handler}/c`, 'PUT', auth, body)).status, 201);
  }
  const mutator = await daemon.waitFor((l) => l.msg === 'mutator error' && l.handler === 'mutated', 30_000);
  assert.match(String(mutator.output), /timed out|timeout/i, JSON.stringify(mutator));
  const slow = await daemon.waitFor((l) => l.msg === 'handler output' && l.handler === 'slow', 30_000);
  assert.match(String(slow.output), /timed out|timeout/i, JSON.stringify(slow));
});
