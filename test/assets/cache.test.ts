// Installed assets under the state directory: one directory per sha512, downloaded once however many wait for it,
// never a half-installed one, and a crash's leftovers swept.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssetCache } from '../../src/assets/cache.js';
import { ChecksumMismatch } from '../../src/assets/fetch.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../servers/asset-server.js';
import { sha512, tarGz } from '../helpers/archives.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let ca: TestCa;
let server: AssetServer;
let archive: Buffer;

before(async () => {
  ca = makeTestCa();
  server = await startAssetServer(ca);
  archive = await tarGz({ 'bin/tool': '#!/bin/sh\necho tool\n', 'lib/libx.so': 'lib' });
});

after(async () => {
  await server.close();
  ca.remove();
});

function cacheIn(t: { after(fn: () => void): void }) {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const { logger, lines } = capturedLogger();
  return { dir, lines, cache: new AssetCache(join(dir, 'assets'), logger, () => ca.caFile) };
}

test('concurrent installs of one asset share one download; the directory is named by its sha512 and holds the archive', async (t) => {
  server.serve('/shared.tar.gz', { body: archive, delayMs: 100 });
  const { dir, lines, cache } = cacheIn(t);
  const build = { url: server.url('/shared.tar.gz'), sha512: sha512(archive), headers: {} };
  const installed = await Promise.all([cache.install('tool', build), cache.install('tool', build), cache.install('tool', build)]);
  const final = join(dir, 'assets', build.sha512);
  assert.deepEqual(installed, [final, final, final]);
  assert.equal(server.hits('/shared.tar.gz'), 1);
  assert.equal(readFileSync(join(final, 'bin/tool'), 'utf8'), '#!/bin/sh\necho tool\n');
  assert.equal(lines.filter((l) => l.msg === 'asset installed').length, 1);
  // Once installed it is not downloaded again, by this cache or by a new one over the same directory.
  assert.equal(await cache.install('tool', build), final);
  assert.equal(await new AssetCache(join(dir, 'assets'), capturedLogger().logger, () => ca.caFile).install('tool', build), final);
  assert.equal(server.hits('/shared.tar.gz'), 1);
  assert.deepEqual(readdirSync(join(dir, 'assets')), [build.sha512], 'no temporary directory is left');
});

test('a download that does not match its sha512 installs nothing, is logged, and is tried again at the next install', async (t) => {
  server.serve('/mismatch.tar.gz', { body: archive });
  const { dir, lines, cache } = cacheIn(t);
  const build = { url: server.url('/mismatch.tar.gz'), sha512: 'b'.repeat(128), headers: {} };
  await assert.rejects(cache.install('bad', build), ChecksumMismatch);
  assert.deepEqual(readdirSync(join(dir, 'assets')), []);
  const mismatch = lines.find((l) => l.msg === 'asset checksum mismatch');
  assert.deepEqual([mismatch?.asset, mismatch?.actual], ['bad', sha512(archive)]);
  await assert.rejects(cache.install('bad', build), ChecksumMismatch);
  assert.equal(server.hits('/mismatch.tar.gz'), 2);
});

test("a crash's temporary directories are swept at the first install; an asset's directory is kept", async (t) => {
  server.serve('/sweep.tar.gz', { body: archive });
  const { dir, cache } = cacheIn(t);
  mkdirSync(join(dir, 'assets', '.tmp-crashed', 'root'), { recursive: true });
  mkdirSync(join(dir, 'assets', 'c'.repeat(128)), { recursive: true });
  const build = { url: server.url('/sweep.tar.gz'), sha512: sha512(archive), headers: {} };
  await cache.install('tool', build);
  assert.equal(existsSync(join(dir, 'assets', '.tmp-crashed')), false);
  assert.deepEqual(readdirSync(join(dir, 'assets')).sort(), [build.sha512, 'c'.repeat(128)].sort());
});
