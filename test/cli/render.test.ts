import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const CONFIG = {
  client: { name: 'box', address: '10.0.0.1', subscriptions: [], disk: { path: '/data' } },
  checks: { disk: { command: 'df :::disk.path::: -w :::disk.warning|80:::', interval: 60, subscribers: ['web'] } },
};

test('a client file may hold the client itself or settings with a client key', (t) => {
  const root = makeTree({
    'conf/a.json': CONFIG,
    'bare.json': { name: 'other', disk: { path: '/srv', warning: 90 } },
    'wrapped.json': { client: { name: 'other', disk: { path: '/var' } }, api: { port: 1 } },
  });
  t.after(() => removeTree(root));
  const render = (client?: string) => {
    const result = runCli(['render', 'disk', join(root, 'conf'), ...(client ? ['--client', join(root, client)] : [])]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as { name: string; command: string; unmatched_tokens: string[] };
  };
  const configured = render();
  assert.equal(configured.command, 'df /data -w 80', 'the configured client, the default where it has none');
  assert.equal(configured.name, 'disk');
  assert.deepEqual(configured.unmatched_tokens, []);
  assert.equal(render('bare.json').command, 'df /srv -w 90');
  assert.equal(render('wrapped.json').command, 'df /var -w 80');
});

test('a client file that is missing or not an object is a client file error naming it', (t) => {
  const root = makeTree({ 'conf/a.json': CONFIG, 'list.json': '[1]' });
  t.after(() => removeTree(root));
  const missing = runCli(['render', 'disk', join(root, 'conf'), '--client', join(root, 'absent.json')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, new RegExp(`checkbridge: client file is invalid: ${join(root, 'absent.json')}: ENOENT\\n$`));
  const list = runCli(['render', 'disk', join(root, 'conf'), '--client', join(root, 'list.json')]);
  assert.equal(list.code, 1);
  assert.match(list.stderr, /list\.json: must be a JSON object\n$/);
});

test('invalid configuration renders nothing, exit 2', (t) => {
  const root = makeTree({ 'a.json': { checks: { disk: { command: 'df' } } } });
  t.after(() => removeTree(root));
  const result = runCli(['render', 'disk', root]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /configuration is invalid\n$/);
});
