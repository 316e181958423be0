// Asset definitions: a build's filters against an entity, and the build an entity selects.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { platformFromEtc } from '../../src/assets/host-system.js';
import { filtersMatch, selectBuild } from '../../src/assets/definitions.js';
import { loadExpressionSandbox } from '../../src/js-sandbox/expressions.js';
import { DISTRIBUTIONS, UBUNTU_ETC, etc } from './distributions.js';

// Asset filters run in the expression sandbox, which the daemon loads at start.
before(() => loadExpressionSandbox());

const SHA = 'a'.repeat(128);

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
