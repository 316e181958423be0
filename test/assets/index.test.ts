// The daemon's assets: conf.d `assets` for legacy executions, a namespace's Asset resources for v2 ones, both
// installed under <state>/assets with the configured CA, and filtered against the local client as an entity.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { daemonAssets } from '../../src/assets/index.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../servers/asset-server.js';
import { sha512, tarGz } from '../helpers/archives.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let ca: TestCa;
let server: AssetServer;
let archive: Buffer;

before(async () => {
  ca = makeTestCa();
  server = await startAssetServer(ca);
  archive = await tarGz({ 'bin/tool': '#!/bin/sh\necho tool\n' });
  server.serve('/tool.tar.gz', { body: archive });
});

after(async () => {
  await server.close();
  ca.remove();
});

const client = { name: 'cb-host', address: '127.0.0.1', subscriptions: ['linux'], labels: { team: 'blue' } };

test("conf.d assets are installed under <state>/assets when their filters match the local client's name, labels and subscriptions", async (t) => {
  const state = makeTree({});
  t.after(() => removeTree(state));
  const asset = (filters: string[]) => ({ url: server.url('/tool.tar.gz'), sha512: sha512(archive), filters });
  const settings = settingsOf({
    client,
    checkbridge: { assets: { trusted_ca_file: ca.caFile } },
    assets: {
      mine: asset(["entity.metadata.name == 'cb-host'", "entity.metadata.labels.team == 'blue'", "entity.subscriptions.indexOf('linux') >= 0"]),
      theirs: asset(["entity.metadata.name == 'other-host'"]),
    },
  });
  const assets = daemonAssets(state, () => settings, capturedLogger().logger);
  const bin = join(state, 'assets', sha512(archive), 'bin');
  assert.deepEqual(await assets.legacy(settings)(['mine']), {
    ok: true,
    prepend: { PATH: [bin], LD_LIBRARY_PATH: [bin.replace(/bin$/, 'lib')], CPATH: [bin.replace(/bin$/, 'include')] },
  });
  assert.deepEqual(await assets.legacy(settings)(['theirs']), { ok: true, prepend: { PATH: [], LD_LIBRARY_PATH: [], CPATH: [] } });
});

test("v2 executions read their namespace's Asset resources, not conf.d's, and trust the configured CA file", async (t) => {
  const state = makeTree({});
  t.after(() => removeTree(state));
  const store = sqliteStore(t);
  store.resources.putResource('Asset', 'ops', 'tool', {
    metadata: { name: 'tool', namespace: 'ops' },
    url: server.url('/tool.tar.gz'),
    sha512: sha512(archive),
  });
  let settings = settingsOf({ client });
  const assets = daemonAssets(state, () => settings, capturedLogger().logger);
  // Without the test CA the asset server's certificate is not trusted.
  const untrusted = await assets.v2(store.resources, 'ops')(['tool']);
  assert.equal(untrusted.ok, false);
  // The CA file is read at each download: a reload naming it applies.
  settings = settingsOf({ client, checkbridge: { assets: { trusted_ca_file: ca.caFile } } });
  const trusted = await assets.v2(store.resources, 'ops')(['tool']);
  assert.deepEqual(trusted.ok && trusted.prepend.PATH, [join(state, 'assets', sha512(archive), 'bin')]);
  const elsewhere = await assets.v2(store.resources, 'default')(['tool']);
  assert.deepEqual(elsewhere.ok && elsewhere.prepend.PATH, [], 'another namespace has no such asset');
});
