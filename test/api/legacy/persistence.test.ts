import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson as get, postJson as post } from '../../helpers/instance.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

test('silences, stashes and aggregates survive a restart; expiries keep counting', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'local', address: '127.0.0.1', subscriptions: [] } } });
  let instance = await startInstance(root);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  let api = instance.api;
  assert.equal((await post(`${api}/silenced`, { subscription: 'web', expire: 3600 })).status, 201);
  assert.equal((await post(`${api}/stashes`, { path: 'keep/me', content: { n: 1 } })).status, 201);
  assert.equal((await post(`${api}/results`, { name: 'agg', source: 'web-1', status: 2, output: 'down', aggregate: 'tier' })).status, 202);
  assert.equal(await instance.daemon.stop('SIGTERM'), 0);

  instance = await startInstance(root);
  api = instance.api;
  const silence = (await get(`${api}/silenced/ids/web:*`)).body;
  assert.equal(silence.id, 'web:*');
  assert.ok(silence.expire > 3500 && silence.expire <= 3600, `expire ${silence.expire}`);
  assert.deepEqual((await get(`${api}/stash/keep/me`)).body, { n: 1 });
  assert.equal((await get(`${api}/aggregates/tier`)).body.results.critical, 1);
});
