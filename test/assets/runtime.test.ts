// What an execution gets from its runtime assets: each installed asset's bin/, lib/ and include/ on the paths, in the
// order listed; an asset whose filters do not match this entity is skipped; one that cannot be installed fails the run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AssetCache } from '../../src/assets/cache.js';
import { RuntimeAssets, withAssets } from '../../src/assets/runtime.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import type { Json } from '../../src/json.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../servers/asset-server.js';
import { sha512, tarGz } from '../helpers/archives.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let ca: TestCa;
let server: AssetServer;
let definitions: Map<string, Json>;

before(async () => {
  ca = makeTestCa();
  server = await startAssetServer(ca);
  const one = await tarGz({ 'bin/say-one': '#!/bin/sh\necho one\n' });
  const two = await tarGz({ 'bin/say-two': '#!/bin/sh\necho two "$CPATH"\n' });
  server.serve('/one.tar.gz', { body: one });
  server.serve('/two.tar.gz', { body: two });
  definitions = new Map<string, Json>([
    ['one', { url: server.url('/one.tar.gz'), sha512: sha512(one) }],
    ['two', { url: server.url('/two.tar.gz'), sha512: sha512(two), filters: ["entity.metadata.name == 'web-01'"] }],
    ['elsewhere', { url: server.url('/two.tar.gz'), sha512: sha512(two), filters: ["entity.metadata.name == 'db-01'"] }],
    ['broken', { url: server.url('/absent.tar.gz'), sha512: 'd'.repeat(128) }],
  ]);
});

after(async () => {
  await server.close();
  ca.remove();
});

function resolverIn(t: { after(fn: () => void): void }) {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const { logger, lines } = capturedLogger();
  const cache = new AssetCache(join(dir, 'assets'), logger, () => ca.caFile);
  const entity = { metadata: { name: 'web-01', namespace: 'default', labels: {} }, entity_class: 'agent', subscriptions: [], system: { os: 'linux' } };
  const assets = new RuntimeAssets(cache, () => entity, logger).resolver((name) => definitions.get(name) ?? null);
  return { dir, lines, assets };
}

test("the assets' bin, lib and include directories go on the paths in the order listed; unknown or unmatched ones are skipped", async (t) => {
  const { dir, lines, assets } = resolverIn(t);
  const prepared = await assets(['two', 'missing', 'elsewhere', 'one']);
  const [one, two] = [join(dir, 'assets', String(definitions.get('one')!.sha512)), join(dir, 'assets', String(definitions.get('two')!.sha512))];
  assert.deepEqual(prepared, {
    ok: true,
    prepend: { PATH: [`${two}/bin`, `${one}/bin`], LD_LIBRARY_PATH: [`${two}/lib`, `${one}/lib`], CPATH: [`${two}/include`, `${one}/include`] },
  });
  const said = (msg: string) => lines.filter((l) => l.msg === msg).map((l) => l.asset);
  assert.deepEqual(said('asset not found: not installed'), ['missing']);
  assert.deepEqual(said('asset filters do not match this entity: not installed'), ['elsewhere']);
  assert.deepEqual(said('asset installed').sort(), ['one', 'two']);
});

test('an asset that cannot be installed fails the preparation with the reason', async (t) => {
  const { assets } = resolverIn(t);
  const prepared = await assets(['one', 'broken']);
  assert.deepEqual(prepared, { ok: false, output: `error getting asset broken: HTTP 404 from ${server.url('/absent.tar.gz')}` });
});

test("withAssets runs the command with the assets' paths, fails it with status 3 when one cannot be installed, and adds nothing without names", async (t) => {
  const { assets } = resolverIn(t);
  const ran = await withAssets(spawnCommand, assets, ['one', 'two'])('say-one && say-two', { timeout: 10 });
  assert.equal(ran.status, 0, ran.output);
  assert.match(ran.output, /^one\ntwo \S+\/include/);
  const failed = await withAssets(spawnCommand, assets, ['broken'])('true', { timeout: 10 });
  assert.deepEqual([failed.status, failed.output], [3, `error getting asset broken: HTTP 404 from ${server.url('/absent.tar.gz')}`]);
  assert.equal(withAssets(spawnCommand, assets, []), spawnCommand);
  assert.equal(withAssets(spawnCommand, undefined, ['one']), spawnCommand);
  assert.equal(withAssets(spawnCommand, assets, 'one'), spawnCommand, 'names that are not an array are none');
});
