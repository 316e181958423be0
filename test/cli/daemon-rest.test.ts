// What the daemon does not start before it is needed: the expression sandbox's threads wait for the first filter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startInstance } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { eventually } from '../helpers/wait.js';

const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

test('rest: no sandbox thread until the first filter expression, which then decides as before', async (t) => {
  const root = makeTree({ 'conf.d/a.json': { client: { name: 'rest', address: '127.0.0.1', subscriptions: [] } } });
  t.after(() => removeTree(root));
  const { daemon, v2 } = await startInstance(root, ['--log-level', 'debug']);
  t.after(() => daemon.stop());
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const send = (method: string, path: string, body?: unknown) => call(`${ns}${path}`, method, auth, body);
  assert.equal(
    (await send('PUT', '/filters/critical', { metadata: { name: 'critical' }, action: 'allow', expressions: ['event.check.status == 2'] })).status,
    201,
  );
  assert.equal((await send('PUT', '/handlers/h', { type: 'pipe', command: 'cat > /dev/null', timeout: 10 })).status, 201);
  const workflow = {
    name: 'w',
    filters: [{ name: 'critical', type: 'EventFilter', api_version: 'core/v2' }],
    handler: { name: 'h', type: 'Handler', api_version: 'core/v2' },
  };
  assert.equal((await send('PUT', '/pipelines/p', { workflows: [workflow] })).status, 201);
  const atRest = threads(daemon.proc.pid!);
  assert.equal(daemon.logs.filter((l) => l.msg === 'expression sandbox loaded for the first evaluation').length, 0, 'the sandbox loaded at rest');

  const put = (check: string, status: number) =>
    send('PUT', `/events/e1/${check}`, {
      entity: { entity_class: 'proxy', metadata: { name: 'e1' } },
      check: { metadata: { name: check }, interval: 60, status, output: 'x' },
      pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'p' }],
    });
  // The first event waits for the sandbox instead of being judged without it: a status 0 is filtered out, a 2 handled.
  assert.equal((await put('ok', 0)).status, 201);
  assert.equal((await put('bad', 2)).status, 201);
  await daemon.waitFor((l) => l.msg === 'event was filtered' && l.handler === 'h', 30_000);
  await daemon.waitFor((l) => l.msg === 'handler output' && l.handler === 'h', 30_000);
  assert.equal(daemon.logs.filter((l) => l.msg === 'filter expression failed').length, 0);
  await daemon.waitFor((l) => l.msg === 'expression sandbox loaded for the first evaluation', 30_000);
  // The active thread and its spare are started now, not at start.
  const more = await eventually(
    async () => threads(daemon.proc.pid!),
    (n) => n >= atRest + 2,
    30_000,
  );
  assert.ok(more >= atRest + 2, `threads at rest ${atRest}, after the first filter ${more}`);
});
