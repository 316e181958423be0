import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeTree } from '../../helpers/tree.js';
import type { Json } from '../../../src/json.js';
import { dashboardApi } from '../../helpers/dashboard-api.js';

const NOW_MS = 1_700_000_000_000;
const DASH = '/api/checkbridge/v1';
const FILES = {
  'conf.d/client.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [], disk: { warn: 80 } } },
  'conf.d/checks.json': {
    checks: { disk: { command: 'check-disk -w :::disk.warn|90::: -h :::address::: :::nothing:::', interval: 60, subscribers: ['web'] } },
  },
};

// The v2 API with the dashboard, its configuration in a directory of files, on a real store and intake.
async function dashboard(t: TestContext) {
  const { app, root, store, admin } = await dashboardApi(t, FILES, NOW_MS);
  const authorization = admin;
  const get = (url: string) => app.inject({ url: `${DASH}${url}`, headers: { authorization } });
  return { get, root, store };
}

test('config diagnostics: the files read and no diagnostics for a valid configuration; each problem with its place once broken', async (t) => {
  const { get, root } = await dashboard(t);
  const valid = (await get('/config/diagnostics')).json();
  assert.deepEqual(valid, {
    valid: true,
    files: [join(root, 'conf.d', 'checks.json'), join(root, 'conf.d', 'client.json')],
    diagnostics: [],
    warnings: [],
  });
  writeTree(root, { 'conf.d/checks.json': { checks: { disk: { command: 'true', interval: 'often', subscribers: ['web'] } } } });
  const broken = (await get('/config/diagnostics')).json();
  assert.equal(broken.valid, false);
  assert.ok(broken.diagnostics.length > 0);
  const [first] = broken.diagnostics as Json[];
  assert.deepEqual(Object.keys(first!).sort(), ['column', 'file', 'line', 'message', 'path']);
  assert.equal(first!.file, join(root, 'conf.d', 'checks.json'));
  assert.match(JSON.stringify(broken.diagnostics), /interval/);
});

test('config render: a check with its tokens substituted from the local client, the unmatched ones named', async (t) => {
  const { get } = await dashboard(t);
  const rendered = (await get('/config/render?check=disk')).json();
  assert.equal(rendered.client, 'cb-host');
  assert.deepEqual([rendered.check.name, rendered.check.command, rendered.check.unmatched_tokens], ['disk', 'check-disk -w 80 -h 127.0.0.1 ', ['nothing']]);
});

test('config render: for a stored client by name; 404 for no such check or client, or an invalidated one', async (t) => {
  const { get, store } = await dashboard(t);
  store.putClient({ name: 'web-7', address: '10.0.0.7', subscriptions: ['web'] });
  store.putClient({ name: 'gone', signature: 'invalidated', invalidated: true });
  const rendered = (await get('/config/render?check=disk&client=web-7')).json();
  assert.deepEqual([rendered.client, rendered.check.command], ['web-7', 'check-disk -w 90 -h 10.0.0.7 ']);
  for (const [query, message] of [
    ['check=absent', 'no such check'],
    ['check=toString', 'no such check'],
    ['check=disk&client=absent', 'no such client'],
    ['check=disk&client=gone', 'no such client'],
  ]) {
    const answer = await get(`/config/render?${query}`);
    assert.deepEqual([answer.statusCode, answer.json().message], [404, message], query);
  }
});

test('migration: the compiled resources with their types, names and namespaces; the same as YAML to download', async (t) => {
  const { get } = await dashboard(t);
  const migration = (await get('/migration')).json();
  assert.ok(
    migration.resources.some((r: Json) => r.type === 'CheckConfig' && r.name === 'disk' && r.namespace === 'default'),
    JSON.stringify(migration.resources),
  );
  assert.ok(Array.isArray(migration.warnings));
  assert.equal(typeof migration.labels, 'object');
  const yaml = await get('/migration.yaml');
  assert.equal(yaml.statusCode, 200);
  assert.equal(yaml.headers['content-type'], 'application/yaml; charset=utf-8');
  assert.equal(yaml.headers['content-disposition'], 'attachment; filename="checkbridge-resources.yaml"');
  assert.match(yaml.payload, /type: CheckConfig/);
  assert.match(yaml.payload, /name: disk/);
});

test('migration: an invalid configuration is a 400 pointing to the Configuration page, for both forms', async (t) => {
  const { get, root } = await dashboard(t);
  writeTree(root, { 'conf.d/checks.json': '{ not json' });
  for (const path of ['/migration', '/migration.yaml']) {
    const answer = await get(path);
    assert.deepEqual([answer.statusCode, answer.json().message], [400, 'the configuration is invalid: see Configuration'], path);
  }
});
