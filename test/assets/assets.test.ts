import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTree, removeTree } from '../helpers/tree.js';
import { runCli } from '../helpers/cli.js';
import { platformFromEtc } from '../../src/assets/host-system.js';
import { filtersMatch, selectBuild } from '../../src/assets/definitions.js';
import { entryProblem, linksProblem, resolveInTree } from '../../src/assets/unpack.js';
import { loadExpressionSandbox } from '../../src/js-sandbox/expressions.js';

// Asset filters run in the expression sandbox, which the daemon loads at start.
before(() => loadExpressionSandbox());

const SHA = 'a'.repeat(128);
const etc =
  (files: Record<string, string>) =>
  (name: string): string | null =>
    files[name] ?? null;
const UBUNTU_ETC = {
  'os-release': 'NAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\nID_LIKE=debian\n',
  debian_version: 'bookworm/sid\n',
  'lsb-release': 'DISTRIB_ID=Ubuntu\nDISTRIB_RELEASE=22.04\n',
};

// Fixtures are the release files each distribution ships; the answers are gopsutil's (what Sensu Go's agent reports).
const DISTRIBUTIONS: ReadonlyArray<[string, Record<string, string>, string, string, string]> = [
  [
    'RHEL 8',
    {
      'redhat-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n',
      'system-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n',
      'os-release': 'ID="rhel"\nID_LIKE="fedora"\nVERSION_ID="8.9"\n',
    },
    'redhat',
    'rhel',
    '8.9',
  ],
  [
    'Oracle Linux 8',
    {
      'oracle-release': 'Oracle Linux Server release 8.9\n',
      'redhat-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n',
      'os-release': 'ID="ol"\nID_LIKE="fedora"\nVERSION_ID="8.9"\n',
    },
    'oracle',
    'rhel',
    '8.9',
  ],
  [
    'Amazon Linux 2',
    { 'system-release': 'Amazon Linux release 2 (Karoo)\n', 'os-release': 'ID="amzn"\nID_LIKE="centos rhel fedora"\nVERSION_ID="2"\n' },
    'amazon',
    'rhel',
    '2',
  ],
  [
    'CentOS 7',
    { 'redhat-release': 'CentOS Linux release 7.9.2009 (Core)\n', 'os-release': 'ID="centos"\nID_LIKE="rhel fedora"\n' },
    'centos',
    'rhel',
    '7.9.2009',
  ],
  [
    'Rocky 9',
    { 'redhat-release': 'Rocky Linux release 9.3 (Blue Onyx)\n', 'os-release': 'ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.3"\n' },
    'rocky',
    'rhel',
    '9.3',
  ],
  ['Fedora 39', { 'redhat-release': 'Fedora release 39 (Thirty Nine)\n', 'os-release': 'ID=fedora\nVERSION_ID=39\n' }, 'fedora', 'fedora', '39'],
  [
    'Linux Mint 21',
    {
      debian_version: 'bookworm/sid\n',
      'lsb-release': 'DISTRIB_ID=LinuxMint\nDISTRIB_RELEASE=21.3\n',
      'os-release': 'ID=linuxmint\nID_LIKE="ubuntu debian"\nVERSION_ID="21.3"\n',
    },
    'linuxmint',
    'debian',
    '21.3',
  ],
  [
    'Debian 12',
    { debian_version: '12.5\n', 'os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\nID=debian\n' },
    'debian',
    'debian',
    '12.5',
  ],
  ['Ubuntu 22.04', UBUNTU_ETC, 'ubuntu', 'debian', '22.04'],
  ['Alpine 3.19', { 'alpine-release': '3.19.1\n', 'os-release': 'ID=alpine\nVERSION_ID=3.19.1\n' }, 'alpine', 'alpine', '3.19.1'],
  [
    'openSUSE Leap 15.5',
    { 'os-release': 'NAME="openSUSE Leap"\nID="opensuse-leap"\nID_LIKE="suse opensuse"\nVERSION_ID="15.5"\n' },
    'opensuse-leap',
    'suse',
    '15.5',
  ],
  ['Arch', { 'arch-release': '', 'os-release': 'ID=arch\n' }, 'arch', 'arch', ''],
  ['an unknown os-release', { 'os-release': 'ID=nixos\nID_LIKE=""\nVERSION_ID="23.11"\n' }, 'nixos', '', '23.11'],
];

test("the host platform, family and version are the ones Sensu Go's agent (gopsutil) reports", () => {
  for (const [name, files, platform, family, version] of DISTRIBUTIONS) {
    assert.deepEqual(platformFromEtc(etc(files)), { platform, platform_family: family, platform_version: version }, name);
  }
  assert.deepEqual(platformFromEtc(etc({})), { platform: '', platform_family: '', platform_version: '' }, 'no release file');
});

test("docs/sensu-go.md's platform_family == 'rhel' filter matches RHEL, Oracle and Amazon Linux", async () => {
  for (const [name, files] of DISTRIBUTIONS.slice(0, 3)) {
    const entity = { metadata: { name: 'h', labels: {} }, system: { os: 'linux', arch: 'amd64', ...platformFromEtc(etc(files)) } };
    assert.equal(await filtersMatch(["entity.system.platform_family == 'rhel'"], entity), true, name);
  }
});

test('a debian platform filter does not match ubuntu; the platform_family filter does', async () => {
  const ubuntu = { metadata: { name: 'u', labels: { tier: 'web' } }, system: { os: 'linux', arch: 'amd64', ...platformFromEtc(etc(UBUNTU_ETC)) } };
  assert.equal(await filtersMatch(["entity.system.platform == 'debian'"], ubuntu), false);
  assert.equal(await filtersMatch(["entity.system.platform_family == 'debian'", "entity.system.arch == 'amd64'"], ubuntu), true);
  assert.equal(await filtersMatch(["entity.labels.tier == 'web'"], ubuntu), true, 'labels read from metadata');
  assert.equal(await filtersMatch(['entity.nothing.here == 1'], ubuntu), false, 'a failing expression does not match');
  const asset = {
    builds: [
      { url: 'https://a/deb', sha512: SHA, filters: ["entity.system.platform == 'debian'"] },
      { url: 'https://a/family', sha512: SHA, filters: ["entity.system.platform_family == 'debian'"] },
    ],
  };
  assert.equal((await selectBuild(asset, (f) => filtersMatch(f, ubuntu)))?.url, 'https://a/family');
  assert.equal(await selectBuild({ url: 'https://a/x', sha512: SHA, filters: ["entity.system.os == 'windows'"] }, (f) => filtersMatch(f, ubuntu)), null);
});

test('archive entries that escape the asset directory are refused', () => {
  assert.equal(entryProblem({ path: 'bin/tool', type: 'File', linkpath: '' }), null);
  assert.equal(entryProblem({ path: 'lib/libx.so', type: 'SymbolicLink', linkpath: 'libx.so.1' }), null);
  assert.equal(entryProblem({ path: 'bin/x', type: 'Link', linkpath: 'bin/tool' }), null);
  assert.match(entryProblem({ path: '../x', type: 'File', linkpath: '' })!, /escapes/);
  assert.match(entryProblem({ path: 'a/../../x', type: 'File', linkpath: '' })!, /escapes/);
  assert.match(entryProblem({ path: '/etc/passwd', type: 'File', linkpath: '' })!, /escapes/);
  assert.match(entryProblem({ path: 'bin/sh', type: 'SymbolicLink', linkpath: '/bin/sh' })!, /outside/);
  assert.match(entryProblem({ path: 'bin/up', type: 'SymbolicLink', linkpath: '../../etc' })!, /outside/);
  assert.match(entryProblem({ path: 'bin/hard', type: 'Link', linkpath: '../outside' })!, /outside/);
  assert.match(entryProblem({ path: 'dev/null', type: 'CharacterDevice', linkpath: '' })!, /not allowed/);
});

test("links are resolved through the archive's own links, as the kernel would: none may end outside", () => {
  const links = new Map([
    ['a/b', '..'],
    ['loop', 'loop'],
    ['bin', 'usr/bin'],
    ['abs', '/etc'],
  ]);
  assert.equal(resolveInTree('a/b/a/b', links), '');
  assert.equal(resolveInTree('a/b/a/b/../../..', links), null, 'lexically a, really three levels up');
  assert.equal(resolveInTree('bin/tool', links), 'usr/bin/tool');
  assert.equal(resolveInTree('bin/../lib', links), 'usr/lib');
  assert.equal(resolveInTree('loop/x', links), null, 'a loop');
  assert.equal(resolveInTree('abs', links), null, 'an absolute target');
  const dir = { path: 'a/', type: 'Directory' as const, linkpath: '' };
  const up = { path: 'a/b', type: 'SymbolicLink' as const, linkpath: '..' };
  assert.equal(linksProblem([dir, up]), null);
  assert.match(linksProblem([dir, up, { path: 'x', type: 'SymbolicLink', linkpath: 'a/b/a/b/../../..' }])!, /^x: link to .* points outside/);
  assert.match(linksProblem([{ path: 'x', type: 'SymbolicLink', linkpath: 'a/b/../../..' }, dir, up])!, /^x: link to .* points outside/, 'whatever the order');
  assert.match(linksProblem([dir, up, { path: 'a/b/file', type: 'File', linkpath: '' }])!, /^a\/b\/file: path passes through the symbolic link a\/b$/);
  assert.match(linksProblem([dir, up, { path: 'h', type: 'Link', linkpath: 'a/b/a/b/../../x' }])!, /^h: link to .* points outside/);
  assert.equal(
    linksProblem([
      { path: 'lib/libx.so', type: 'SymbolicLink', linkpath: 'libx.so.1' },
      { path: 'lib/libx.so.1', type: 'SymbolicLink', linkpath: 'libx.so.1.2' },
    ]),
    null,
  );
});

test('legacy configuration: assets are validated and an unknown runtime_assets name is named', (t) => {
  const root = makeTree({
    'conf.d/config.json': {
      assets: { good: { url: 'https://example.com/good.tar.gz', sha512: SHA }, broken: { url: 'ftp://x', sha512: 'abc' } },
      checks: {
        uses: {
          command: 'tool',
          interval: 60,
          subscribers: ['x'],
          runtime_assets: ['good', 'missing'],
          hooks: { critical: { command: 'tool', runtime_assets: ['gone'] } },
        },
      },
      handlers: { h: { type: 'pipe', command: 'tool', runtime_assets: ['good', 'absent'] } },
      mutators: { m: { command: 'tool', runtime_assets: 'good' } },
    },
  });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--json', join(root, 'conf.d')]);
  assert.equal(result.code, 2, result.stderr);
  const messages = (JSON.parse(result.stdout).errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`);
  for (const expected of [
    '/assets/broken/url: asset url must be an http or https URL',
    '/assets/broken/sha512: asset sha512 must be 128 hexadecimal characters',
    '/checks/uses/runtime_assets: runtime_assets names an unknown asset: missing (define it under the top-level assets)',
    '/checks/uses/hooks/critical/runtime_assets: runtime_assets names an unknown asset: gone (define it under the top-level assets)',
    '/handlers/h/runtime_assets: runtime_assets names an unknown asset: absent (define it under the top-level assets)',
    '/mutators/m/runtime_assets: mutator runtime_assets must be an array',
  ])
    assert.ok(messages.includes(expected), `${expected}\n in ${messages.join('\n')}`);
  assert.equal(
    messages.some((m) => m.includes('good')),
    false,
    'a defined asset is not reported',
  );
});
