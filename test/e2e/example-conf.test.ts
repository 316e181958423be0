import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startInstance, postJson, eventually } from '../helpers/instance.js';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { ROOT } from '../helpers/paths.js';

test('the example conf.d is lint-clean, and its handler logs events inside the state directory, not in a shared /tmp', async (t) => {
  const strict = runCli(['validate', '--strict', join(ROOT, 'conf.d')]);
  assert.equal(strict.code, 0, strict.stdout + strict.stderr);
  const root = makeTree({});
  t.after(() => removeTree(root));
  cpSync(join(ROOT, 'conf.d'), join(root, 'conf.d'), { recursive: true });
  const instance = await startInstance(root);
  t.after(async () => void (await instance.daemon.stop()));
  assert.equal((await postJson(`${instance.api}/results`, { name: 'example_handled', status: 2, output: 'could not connect' })).status, 202);
  const log = join(root, 'state', 'events.log');
  const text = await eventually(
    async () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    (body) => body.includes('example_handled'),
  );
  const event = JSON.parse(text.split('\n').find((line) => line.includes('example_handled'))!);
  assert.equal(event.check.name, 'example_handled');
  assert.equal(event.check.status, 2);
});
