import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startInstance, eventually, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { makeTree, removeTree, writeTree } from '../../helpers/tree.js';
import { runCli } from '../../helpers/cli.js';
import { makeTestCa, type TestCa } from '../../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../../servers/asset-server.js';
import { tarGz, sha512 } from '../../helpers/archives.js';
import { adminToken, call } from './v2-helpers.js';

let ca: TestCa;
let server: AssetServer;
let archive: Buffer;

before(async () => {
  ca = makeTestCa();
  server = await startAssetServer(ca);
  archive = await tarGz({ 'bin/record-event': '#!/bin/sh\ncat >> "$1"; echo >> "$1"\n', 'bin/mutate-event': "#!/bin/sh\nprintf 'v2-mutated:'; cat\n" });
  server.serve('/tools.tar.gz', { body: archive, requireHeader: ['X-Asset-Token', 'let-me-in'] });
});

after(async () => {
  await server.close();
  ca.remove();
});

test('v2 Asset resources: CRUD, validation, selectors, create -f and dump; v2 handlers and mutators run with them', async (t) => {
  const root = makeTree({});
  writeTree(root, {
    'conf.d/config.json': { client: { name: 'v2-assets', address: '127.0.0.1', subscriptions: [] }, checkbridge: { assets: { trusted_ca_file: ca.caFile } } },
  });
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const tools = {
    url: server.url('/tools.tar.gz'),
    sha512: sha512(archive),
    headers: { 'X-Asset-Token': 'let-me-in' },
    filters: ["entity.system.os == 'linux'"],
  };

  assert.equal((await call(`${ns}/assets/tools`, 'PUT', auth, { metadata: { name: 'tools', labels: { team: 'ops' } }, ...tools })).status, 201);
  const stored = await call(`${ns}/assets/tools`, 'GET', auth);
  assert.equal(stored.status, 200);
  assert.equal(stored.body.url, tools.url);
  assert.equal(stored.body.metadata.namespace, 'default');
  assert.equal((await call(`${ns}/assets`, 'POST', auth, { metadata: { name: 'tools' }, ...tools })).status, 409, 'POST refuses an existing asset');
  const selected = await call(`${ns}/assets?fieldSelector=${encodeURIComponent('asset.name == tools')}`, 'GET', auth);
  assert.deepEqual(
    selected.body.map((a: { metadata: { name: string } }) => a.metadata.name),
    ['tools'],
  );
  assert.deepEqual((await call(`${ns}/assets?labelSelector=${encodeURIComponent('team == dev')}`, 'GET', auth)).body, []);

  const invalid = [
    [{ url: tools.url, sha512: 'abc' }, 'sha512 must be 128 hexadecimal characters'],
    [{ sha512: tools.sha512 }, 'url must be set'],
    [{ builds: [{ url: tools.url }] }, 'builds[0].sha512 must be 128 hexadecimal characters'],
    [
      { url: tools.url, sha512: tools.sha512, filters: 'entity.system.os' },
      'json: cannot unmarshal string into Go struct field Asset.filters of type []string',
    ],
  ] as const;
  for (const [body, message] of invalid) {
    const reply = await call(`${ns}/assets/bad`, 'PUT', auth, body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.equal(reply.body.message, message);
  }
  const badRef = await call(`${ns}/handlers/h`, 'PUT', auth, { type: 'pipe', command: 'true', runtime_assets: 'tools' });
  assert.equal(badRef.status, 400);
  assert.equal(badRef.body.message, 'json: cannot unmarshal string into Go struct field Handler.runtime_assets of type []string');
  assert.equal((await call(`${ns}/checks/c`, 'PUT', auth, { command: 'tool', interval: 60, runtime_assets: ['tools'] })).status, 201);
  assert.equal((await call(`${ns}/hooks/hk`, 'PUT', auth, { command: 'tool', timeout: 10, runtime_assets: ['tools'] })).status, 201);
  assert.deepEqual(
    (await call(`${ns}/checks?fieldSelector=${encodeURIComponent('tools in check.runtime_assets')}`, 'GET', auth)).body.map(
      (c: { metadata: { name: string } }) => c.metadata.name,
    ),
    ['c'],
  );

  // A v2 pipeline: the mutator and the handler come from the asset, fetched with its headers.
  const out = join(root, 'v2-handled.out');
  assert.equal((await call(`${ns}/mutators/with-asset`, 'PUT', auth, { command: 'mutate-event', runtime_assets: ['tools'] })).status, 201);
  assert.equal(
    (await call(`${ns}/handlers/with-asset`, 'PUT', auth, { type: 'pipe', command: `record-event ${out}`, mutator: 'with-asset', runtime_assets: ['tools'] }))
      .status,
    201,
  );
  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'http' }, status: 2, output: 'down', handlers: ['with-asset'] },
  };
  assert.equal((await call(`${ns}/events`, 'POST', auth, event)).status, 201);
  const written = await eventually(
    async () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
    (s) => s.length > 0,
  );
  assert.ok(written.startsWith('v2-mutated:{'), written);
  assert.equal(JSON.parse(written.slice('v2-mutated:'.length)).check.output, 'down');
  assert.equal(server.hits('/tools.tar.gz'), 1);

  // create -f and dump carry Asset resources.
  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  writeTree(root, {
    'resources/asset.yaml': `type: Asset\napi_version: core/v2\nmetadata:\n  name: from-file\nspec:\n  url: ${tools.url}\n  sha512: ${tools.sha512}\n  filters:\n    - entity.system.arch == 'amd64'\n`,
  });
  const created = runCli(['create', '-f', join(root, 'resources'), '--url', v2], asAdmin);
  assert.equal(created.code, 0, created.stderr);
  const dumped = runCli(['dump', 'assets', '--url', v2], asAdmin);
  assert.equal(dumped.code, 0, dumped.stderr);
  const documents = parseAllDocuments(dumped.stdout).map((d) => d.toJSON());
  assert.deepEqual(
    documents.map((d) => [d.type, d.metadata.name]),
    [
      ['Asset', 'from-file'],
      ['Asset', 'tools'],
    ],
  );
  assert.deepEqual(documents[0].spec.filters, ["entity.system.arch == 'amd64'"]);

  assert.equal((await call(`${ns}/assets/tools`, 'DELETE', auth)).status, 204);
  assert.equal((await call(`${ns}/assets/tools`, 'GET', auth)).status, 404);
});

test('an asset whose url is not an http or https URL is stored as Sensu Go stores it, and never fetched: the install fails, logged', async (t) => {
  const root = makeTree({});
  writeTree(root, { 'conf.d/config.json': { client: { name: 'v2-assets-url', address: '127.0.0.1', subscriptions: [] } } });
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  // The archive is on this disk, with its right sha512: only the scheme keeps it from being installed.
  const local = join(root, 'tools.tar.gz');
  writeFileSync(local, archive);
  for (const [name, url] of [
    ['local', `file://${local}`],
    ['words', 'not a url'],
  ]) {
    assert.equal((await call(`${ns}/assets/${name}`, 'PUT', auth, { metadata: { name }, url, sha512: sha512(archive) })).status, 201, url);
    assert.equal((await call(`${ns}/assets/${name}`, 'GET', auth)).body.url, url);
  }
  const out = join(root, 'local-handled.out');
  assert.equal(
    (await call(`${ns}/handlers/local`, 'PUT', auth, { type: 'pipe', command: `record-event ${out}`, runtime_assets: ['local', 'words'] })).status,
    201,
  );
  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'http' }, status: 2, output: 'down', handlers: ['local'] },
  };
  assert.equal((await call(`${ns}/events`, 'POST', auth, event)).status, 201);
  for (const name of ['local', 'words']) {
    const failed = await daemon.waitFor((l) => l.msg === 'asset install failed' && l.asset === name, 20_000);
    assert.match(String(failed.error), /is not an http or https URL: not fetched/);
  }
  assert.ok(!existsSync(out), 'the handler did not run from an asset read off the disk');
});
