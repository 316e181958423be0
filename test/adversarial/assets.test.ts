import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, getJson, postJson, eventually, type Instance } from '../helpers/instance.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../servers/asset-server.js';
import { tarGz, craftedTarGz, sha512 } from '../helpers/archives.js';

// Asset archives once had no size caps (52 KB unpacked to 50 MB) and a chain of links could install one pointing outside.
const LIMITS = { max_download_bytes: 256 * 1024, max_unpacked_bytes: 1024 * 1024, max_entries: 20 };

let ca: TestCa;
let server: AssetServer;
const archives = new Map<string, Buffer>();
const script = (body: string) => `#!/bin/sh\n${body}\n`;

before(async () => {
  ca = makeTestCa();
  server = await startAssetServer(ca);
  // 3 MB of zeros compresses to a few KB: over max_unpacked_bytes, far under max_download_bytes.
  archives.set('bomb', await tarGz({ 'bin/bomb-tool': script('echo never'), 'share/zeros': '\0'.repeat(3 * 1024 * 1024) }));
  archives.set('many', await tarGz(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`share/f${i}`, `${i}\n`]))));
  // Random bytes do not compress: a download over max_download_bytes.
  archives.set('heavy', await tarGz({ 'bin/heavy-tool': script('echo never'), 'share/noise': randomBytes(400 * 1024).toString('base64') }));
  archives.set('fits', await tarGz({ 'bin/fits-tool': script('echo fits'), 'share/data': 'x'.repeat(100 * 1024) }));
  // a/b -> .. is inside on its own; through it twice, x climbs three levels above the asset.
  archives.set(
    'chain',
    craftedTarGz([
      { path: 'bin/chain-tool', type: 'File', content: script('echo never') },
      { path: 'a/', type: 'Directory' },
      { path: 'a/b', type: 'SymbolicLink', linkpath: '..' },
      { path: 'x', type: 'SymbolicLink', linkpath: 'a/b/a/b/../../..' },
    ]),
  );
  archives.set(
    'through',
    craftedTarGz([
      { path: 'a/', type: 'Directory' },
      { path: 'a/b', type: 'SymbolicLink', linkpath: '..' },
      { path: 'a/b/a/b/up', type: 'SymbolicLink', linkpath: '../../../..' },
    ]),
  );
  archives.set(
    'hard',
    craftedTarGz([
      { path: 'a/', type: 'Directory' },
      { path: 'a/b', type: 'SymbolicLink', linkpath: '..' },
      { path: 'a/c', type: 'SymbolicLink', linkpath: 'b/b/b' },
      { path: 'h', type: 'Link', linkpath: 'a/b/a/c/../../../etc' },
    ]),
  );
  // Links as real runtimes ship them: a directory link, and a library version chain (the extractor itself refuses a
  // link whose target is an already extracted link, so this chain comes last link first).
  archives.set(
    'links',
    craftedTarGz([
      { path: 'usr/bin/links-tool', type: 'File', content: script('echo links ok') },
      { path: 'bin', type: 'SymbolicLink', linkpath: 'usr/bin' },
      { path: 'lib/', type: 'Directory' },
      { path: 'lib/libx.so.1.2', type: 'File', content: 'library\n' },
      { path: 'lib/libx.so', type: 'SymbolicLink', linkpath: 'libx.so.1' },
      { path: 'lib/libx.so.1', type: 'SymbolicLink', linkpath: 'libx.so.1.2' },
    ]),
  );
  for (const [name, body] of archives) server.serve(`/${name}.tar.gz`, { body });
  server.serve('/heavy-chunked.tar.gz', { body: archives.get('heavy')!, chunked: true });
});

after(async () => {
  await server.close();
  ca.remove();
});

const hash = (name: string) => sha512(archives.get(name)!);
const asset = (name: string, path = `/${name}.tar.gz`) => ({ url: server.url(path), sha512: hash(name) });
const uses = (command: string, assetName: string) => ({ command, runtime_assets: [assetName], subscribers: ['assets'], publish: false, handle: false });

async function execute(instance: Instance, check: string): Promise<Record<string, any>> {
  assert.equal((await postJson(`${instance.api}/request`, { check, subscribers: ['assets'] })).status, 202, `request ${check}`);
  const reply = await eventually(
    () => getJson(`${instance.api}/results/caps-host/${check}`),
    (r) => r.status === 200,
    15_000,
  );
  assert.equal(reply.status, 200, `a result for ${check}`);
  return reply.body.check;
}

/** Every symbolic link below `dir` with its target. */
function linksBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return [`${path} -> ${readlinkSync(path)}`];
    return stat.isDirectory() ? linksBelow(path) : [];
  });
}

test('asset caps (download, unpacked size, entries) and links through links: refused with a clear error, nothing left in the cache', async (t) => {
  const root = makeTree({});
  writeTree(root, {
    'conf.d/config.json': {
      client: { name: 'caps-host', address: '127.0.0.1', subscriptions: ['assets'] },
      checkbridge: { assets: { trusted_ca_file: ca.caFile, ...LIMITS } },
      assets: {
        bomb: asset('bomb'),
        many: asset('many'),
        heavy: asset('heavy'),
        heavy_chunked: asset('heavy', '/heavy-chunked.tar.gz'),
        fits: asset('fits'),
        chain: asset('chain'),
        through: asset('through'),
        hard: asset('hard'),
        links: asset('links'),
      },
      checks: {
        bomb: uses('bomb-tool', 'bomb'),
        many: uses('true', 'many'),
        heavy: uses('heavy-tool', 'heavy'),
        heavy_chunked: uses('heavy-tool', 'heavy_chunked'),
        fits: uses('fits-tool', 'fits'),
        chain: uses('chain-tool', 'chain'),
        through: uses('true', 'through'),
        hard: uses('true', 'hard'),
        links: uses('links-tool && readlink "${LD_LIBRARY_PATH%%:*}/libx.so"', 'links'),
      },
    },
  });
  const instance = await startInstance(root);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const assetsDir = join(root, 'state', 'assets');
  const leftOf = (name: string) => readdirSync(assetsDir).filter((entry) => entry === hash(name) || entry.startsWith('.tmp-'));

  const refused: [string, string, RegExp][] = [
    ['bomb', 'bomb', /^error getting asset bomb: the archive unpacks to more than checkbridge\.assets\.max_unpacked_bytes \(1048576 bytes\)$/],
    ['many', 'many', /^error getting asset many: the archive has more entries than checkbridge\.assets\.max_entries \(20 entries\)$/],
    ['heavy', 'heavy', /^error getting asset heavy: the download \(\d+ bytes announced\) exceeds checkbridge\.assets\.max_download_bytes \(262144 bytes\)$/],
    ['heavy_chunked', 'heavy', /^error getting asset heavy_chunked: the download exceeds checkbridge\.assets\.max_download_bytes \(262144 bytes\)$/],
    ['chain', 'chain', /^error getting asset chain: archive refused: x: link to a\/b\/a\/b\/\.\.\/\.\.\/\.\. points outside the asset directory/],
    ['through', 'through', /^error getting asset through: archive refused: a\/b\/a\/b\/up: path passes through the symbolic link a\/b$/],
    ['hard', 'hard', /^error getting asset hard: archive refused: h: link to a\/b\/a\/c\/\.\.\/\.\.\/\.\.\/etc points outside the asset directory/],
  ];
  for (const [check, archive, message] of refused) {
    const result = await execute(instance, check);
    assert.equal(result.status, 3, `${check}: ${result.output}`);
    assert.match(result.output, message);
    assert.deepEqual(leftOf(archive), [], `${check}: something was left in the cache`);
  }
  assert.deepEqual(linksBelow(assetsDir), [], 'no link of a refused archive remains');

  // Within the caps, and links that stay inside however they chain: installed and used.
  const fits = await execute(instance, 'fits');
  assert.equal(fits.output, 'fits\n');
  const links = await execute(instance, 'links');
  assert.equal(links.status, 0, links.output);
  assert.equal(links.output, 'links ok\nlibx.so.1\n');
  assert.ok(existsSync(join(assetsDir, hash('links'), 'lib', 'libx.so')), 'the chain resolves inside');
});
