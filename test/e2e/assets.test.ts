import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, getJson, postJson, eventually, type Instance } from '../helpers/instance.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../servers/asset-server.js';
import { tarGz, sha512 } from '../helpers/archives.js';

let ca: TestCa;
let strangerCa: TestCa;
let server: AssetServer;
let stranger: AssetServer;
const archives = new Map<string, Buffer>();

// The host's own platform, read here independently of the daemon: builds are chosen against it.
const osRelease = (() => {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
})();
const field = (key: string) => (new RegExp(`^${key}=["']?([^"'\\n]*)`, 'm').exec(osRelease)?.[1] ?? '').toLowerCase();
const platform = field('ID');
const family = field('ID_LIKE').split(/\s+/).find(Boolean) ?? platform;
const sibling = platform === 'ubuntu' ? 'debian' : 'ubuntu';

const script = (body: string) => `#!/bin/sh\n${body}\n`;

before(async () => {
  ca = makeTestCa();
  strangerCa = makeTestCa('untrusted CA');
  server = await startAssetServer(ca);
  stranger = await startAssetServer(strangerCa);
  archives.set(
    'hello',
    await tarGz({
      'bin/hello-asset': script('echo "hello from asset $1"; exit 1'),
      'bin/record-event': script('cat >> "$1"; echo >> "$1"'),
      'bin/mutate-event': script("printf 'mutated:'; cat"),
      'bin/which-asset': script('echo hello'),
      'lib/libdummy.txt': 'a library would live here\n',
      'include/dummy.h': '#define DUMMY 1\n',
    }),
  );
  archives.set('other', await tarGz({ 'bin/which-asset': script('echo other') }));
  archives.set('copy', await tarGz({ 'bin/hello-asset': script('echo copy') }));
  archives.set('truncated', await tarGz({ 'bin/big-asset': script('echo big'), 'share/padding.txt': 'x'.repeat(200_000) + Math.random() }));
  archives.set('wrong-build', await tarGz({ 'bin/build-name': script('echo wrong build') }));
  archives.set('family-build', await tarGz({ 'bin/build-name': script('echo family build') }));
  archives.set('evil', await tarGz({ 'bin/fine': script('true'), '../escaped-by-asset': 'outside\n' }, { preservePaths: true }));
  archives.set('stranger', await tarGz({ 'bin/stranger-asset': script('echo never') }));
  archives.set('slow', await tarGz({ 'bin/slow-tool': script('echo slow tool ok') }));
  for (const name of ['hello', 'other', 'copy', 'wrong-build', 'family-build', 'evil']) server.serve(`/${name}.tar.gz`, { body: archives.get(name)! });
  server.serve('/truncated.tar.gz', { body: archives.get('truncated')!, truncateAt: half('truncated') });
  server.serve('/slow.tar.gz', { body: archives.get('slow')!, delayMs: 800 });
  stranger.serve('/stranger.tar.gz', { body: archives.get('stranger')! });
});

after(async () => {
  await server.close();
  await stranger.close();
  ca.remove();
  strangerCa.remove();
});

const hash = (name: string) => sha512(archives.get(name)!);
const half = (name: string) => Math.floor(archives.get(name)!.length / 2);

function legacyConfig(file: (name: string) => string) {
  return {
    client: { name: 'assets-host', address: '127.0.0.1', subscriptions: ['assets'] },
    checkbridge: { assets: { trusted_ca_file: ca.caFile } },
    assets: {
      hello: { url: server.url('/hello.tar.gz'), sha512: hash('hello') },
      other: { url: server.url('/other.tar.gz'), sha512: hash('other') },
      wrongsum: { url: server.url('/copy.tar.gz'), sha512: sha512('not the archive') },
      truncated: { url: server.url('/truncated.tar.gz'), sha512: hash('truncated') },
      elsewhere: { url: server.url('/never.tar.gz'), sha512: hash('hello'), filters: ["entity.system.platform == 'plan9'"] },
      by_family: {
        builds: [
          { url: server.url('/wrong-build.tar.gz'), sha512: hash('wrong-build'), filters: [`entity.system.platform == '${sibling}'`] },
          {
            url: server.url('/family-build.tar.gz'),
            sha512: hash('family-build'),
            filters: [`entity.system.platform_family == '${family}'`, "entity.system.os == 'linux'"],
          },
        ],
      },
      evil: { url: server.url('/evil.tar.gz'), sha512: hash('evil') },
      slow: { url: server.url('/slow.tar.gz'), sha512: hash('slow') },
      untrusted: { url: stranger.url('/stranger.tar.gz'), sha512: hash('stranger') },
    },
    checks: {
      uses_asset: { command: 'hello-asset check', runtime_assets: ['hello'], subscribers: ['assets'], publish: false, handle: false },
      paths: {
        command: 'echo "$PATH|$LD_LIBRARY_PATH|$CPATH"; which-asset',
        runtime_assets: ['other', 'hello'],
        subscribers: ['assets'],
        publish: false,
        handle: false,
      },
      wrong_sum: { command: 'hello-asset', runtime_assets: ['wrongsum'], subscribers: ['assets'], publish: false, handle: false },
      truncated: { command: 'big-asset', runtime_assets: ['truncated'], subscribers: ['assets'], publish: false, handle: false },
      filtered: { command: 'hello-asset', runtime_assets: ['elsewhere'], subscribers: ['assets'], publish: false, handle: false },
      family: { command: 'build-name', runtime_assets: ['by_family'], subscribers: ['assets'], publish: false, handle: false },
      evil: { command: 'fine', runtime_assets: ['evil'], subscribers: ['assets'], publish: false, handle: false },
      slow_a: { command: 'slow-tool', runtime_assets: ['slow'], subscribers: ['assets'], publish: false, handle: false },
      slow_b: { command: 'slow-tool', runtime_assets: ['slow'], subscribers: ['assets'], publish: false, handle: false },
      untrusted: { command: 'stranger-asset', runtime_assets: ['untrusted'], subscribers: ['assets'], publish: false, handle: false },
      hooked: {
        command: 'exit 2',
        subscribers: ['assets'],
        publish: false,
        handle: false,
        hooks: { critical: { command: 'hello-asset hook', runtime_assets: ['hello'] } },
      },
      handled: { command: 'echo handled-output; exit 2', subscribers: ['assets'], publish: false, handlers: ['asset_handler'] },
    },
    handlers: { asset_handler: { type: 'pipe', command: `record-event ${file('handled')}`, runtime_assets: ['hello'], mutator: 'asset_mutator' } },
    mutators: { asset_mutator: { command: 'mutate-event', runtime_assets: ['hello'] } },
  };
}

/** Requests `check` now and returns its next result (one executed after `since`). */
async function execute(instance: Instance, check: string, since = 0): Promise<Record<string, any>> {
  const requested = await postJson(`${instance.api}/request`, { check, subscribers: ['assets'] });
  assert.equal(requested.status, 202, `request ${check}`);
  return resultAfter(instance, check, since);
}

async function resultAfter(instance: Instance, check: string, since: number): Promise<Record<string, any>> {
  const reply = await eventually(
    () => getJson(`${instance.api}/results/assets-host/${check}`),
    (r) => r.status === 200 && r.body.check.executed >= since,
    15_000,
  );
  assert.equal(reply.status, 200, `a result for ${check}`);
  return reply.body.check;
}

/** Every path below `dir`. */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...walk(join(dir, e.name))] : [join(dir, e.name)]));
}

test('legacy checks, hooks, handlers and mutators run with downloaded assets; failures are clear; the cache survives restarts', async (t) => {
  const root = makeTree({});
  const file = (name: string) => join(root, `${name}.out`);
  writeTree(root, { 'conf.d/config.json': legacyConfig(file) });
  let instance = await startInstance(root, ['--log-level', 'debug']);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const assetsDir = join(root, 'state', 'assets');

  await t.test('a real archive holding an executable script, used by a real check', async () => {
    const check = await execute(instance, 'uses_asset');
    assert.equal(check.output, 'hello from asset check\n');
    assert.equal(check.status, 1);
    assert.equal(server.hits('/hello.tar.gz'), 1);
    assert.ok(existsSync(join(assetsDir, hash('hello'), 'bin', 'hello-asset')), 'installed under the state directory by sha512');
  });

  await t.test('the cache is reused across executions', async () => {
    const first = await resultAfter(instance, 'uses_asset', 0);
    const again = await execute(instance, 'uses_asset', first.executed + 1);
    assert.equal(again.output, 'hello from asset check\n');
    assert.equal(server.hits('/hello.tar.gz'), 1, 'downloaded once');
  });

  await t.test('bin/, lib/ and include/ are prepended in the order the assets are listed', async () => {
    const check = await execute(instance, 'paths');
    const [paths, which] = String(check.output).trim().split('\n');
    const [path, library, include] = paths!.split('|');
    const other = join(assetsDir, hash('other'));
    const hello = join(assetsDir, hash('hello'));
    assert.ok(path!.startsWith(`${other}/bin:${hello}/bin:`), path);
    assert.ok(path!.endsWith(process.env.PATH ?? ''), 'the inherited PATH follows');
    assert.ok(library!.startsWith(`${other}/lib:${hello}/lib`), library);
    assert.ok(include!.startsWith(`${other}/include:${hello}/include`), include);
    assert.equal(which, 'other', 'the first listed asset wins');
  });

  await t.test('a wrong sha512 fails the execution clearly and logs both hashes at debug', async () => {
    const check = await execute(instance, 'wrong_sum');
    assert.equal(check.status, 3);
    assert.match(check.output, /^error getting asset wrongsum: sha512 mismatch/);
    const logged = await instance.daemon.waitFor((l) => l.msg === 'asset checksum mismatch' && l.asset === 'wrongsum');
    assert.equal(logged.level, 20, 'debug');
    assert.equal(logged.expected, sha512('not the archive'));
    assert.equal(logged.actual, hash('copy'));
    assert.equal(
      walk(assetsDir).some((p) => p.includes(sha512('not the archive'))),
      false,
      'nothing installed',
    );
  });

  await t.test('a truncated download (the server closes early) fails the checksum', async () => {
    const check = await execute(instance, 'truncated');
    assert.equal(check.status, 3);
    assert.ok(check.output.startsWith(`error getting asset truncated: sha512 mismatch: the download (${half('truncated')} bytes, ended early`), check.output);
    const logged = await instance.daemon.waitFor((l) => l.msg === 'asset checksum mismatch' && l.asset === 'truncated');
    assert.equal(logged.expected, hash('truncated'));
    assert.equal(logged.actual, sha512(archives.get('truncated')!.subarray(0, half('truncated'))));
    assert.equal(existsSync(join(assetsDir, hash('truncated'))), false);
  });

  await t.test('a filter that excludes this host: not installed, the command is not found (127)', async () => {
    const check = await execute(instance, 'filtered');
    assert.equal(check.status, 127);
    assert.match(check.output, /hello-asset: .*not found/);
    assert.equal(server.hits('/never.tar.gz'), 0);
    await instance.daemon.waitFor((l) => l.msg === 'asset filters do not match this entity: not installed' && l.asset === 'elsewhere');
  });

  await t.test(`builds: a platform filter on ${sibling} does not match ${platform}; platform_family ${family} does`, async () => {
    const check = await execute(instance, 'family');
    assert.equal(check.output, 'family build\n');
    assert.equal(server.hits('/wrong-build.tar.gz'), 0);
    assert.equal(server.hits('/family-build.tar.gz'), 1);
  });

  await t.test('an archive with ../ is refused and writes nothing outside', async () => {
    const check = await execute(instance, 'evil');
    assert.equal(check.status, 3);
    assert.match(check.output, /^error getting asset evil: archive refused: \.\.\/escaped-by-asset: path escapes the asset directory/);
    assert.equal(
      walk(root).some((p) => p.endsWith('escaped-by-asset')),
      false,
    );
    assert.equal(existsSync(join(assetsDir, hash('evil'))), false);
  });

  await t.test('a server whose CA is not trusted is refused', async () => {
    const check = await execute(instance, 'untrusted');
    assert.equal(check.status, 3);
    assert.match(check.output, /^error getting asset untrusted: .*(certificate|self.signed)/i);
    assert.equal(stranger.hits('/stranger.tar.gz'), 0, 'no request reached it');
  });

  await t.test('two concurrent executions download once', async () => {
    await Promise.all(['slow_a', 'slow_b'].map((name) => postJson(`${instance.api}/request`, { check: name, subscribers: ['assets'] })));
    const [a, b] = await Promise.all([resultAfter(instance, 'slow_a', 0), resultAfter(instance, 'slow_b', 0)]);
    assert.equal(a.output, 'slow tool ok\n');
    assert.equal(b.output, 'slow tool ok\n');
    assert.equal(server.hits('/slow.tar.gz'), 1);
  });

  await t.test('a hook runs with its assets', async () => {
    const check = await execute(instance, 'hooked');
    assert.equal(check.status, 2);
    assert.equal(check.hooks.critical.output, 'hello from asset hook\n');
    assert.equal(check.hooks.critical.status, 1);
  });

  await t.test('a handler and its mutator run with their assets', async () => {
    await execute(instance, 'handled');
    const written = await eventually(
      async () => (existsSync(file('handled')) ? readFileSync(file('handled'), 'utf8') : ''),
      (s) => s.length > 0,
    );
    assert.ok(written.startsWith('mutated:{'), written);
    assert.equal(JSON.parse(written.slice('mutated:'.length)).check.output, 'handled-output\n');
  });

  await t.test('the cache survives a restart', async () => {
    await instance.daemon.stop('SIGTERM');
    instance = await startInstance(root, ['--log-level', 'debug']);
    const check = await execute(instance, 'uses_asset');
    assert.equal(check.output, 'hello from asset check\n');
    assert.equal(server.hits('/hello.tar.gz'), 1, 'not downloaded again');
    assert.equal(
      instance.daemon.logs.some((l) => l.msg === 'asset installed'),
      false,
    );
  });
});
