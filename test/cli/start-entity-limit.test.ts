import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startInstance, postJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const CONF = { 'conf.d/client.json': { client: { name: 'limit-host', subscriptions: [] } } };
const warning = (l: Record<string, unknown>) => l.level === 40 && /the store already knows/.test(String(l.msg));

test('at start the daemon warns when the entities its store knows are at or past the entity limit, and not below it', async (t) => {
  const root = makeTree(CONF);
  t.after(() => removeTree(root));
  const first = await startInstance(root);
  try {
    for (const source of ['proxy-a', 'proxy-b', 'proxy-c'])
      assert.equal((await postJson(`${first.api}/results`, { name: 'ping', source, status: 0, output: 'ok' })).status, 202);
  } finally {
    await first.daemon.stop();
  }
  assert.equal(first.daemon.logs.some(warning), false, 'no warning under the default limit');

  writeFileSync(join(root, 'conf.d', 'limit.json'), JSON.stringify({ checkbridge: { entity_limit: 2 } }));
  const second = await startInstance(root);
  try {
    const line = await second.daemon.waitFor(warning);
    assert.equal(line.entity_limit, 2);
    assert.ok(Number(line.entities) >= 3, JSON.stringify(line));
    assert.match(
      String(line.msg),
      /past the entity limit of 2: new ones are refused, existing ones keep being monitored; raise or remove the limit with the setting checkbridge\.entity_limit \(0 for none\)/,
    );
  } finally {
    await second.daemon.stop();
  }
});
