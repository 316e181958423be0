// The host's platform, family and version as an asset filter sees them, read from /etc as gopsutil reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { platformFromEtc } from '../../src/assets/host-system.js';
import { DISTRIBUTIONS, etc } from './distributions.js';

test("the host platform, family and version are the ones Sensu Go's agent (gopsutil) reports", () => {
  for (const [name, files, platform, family, version] of DISTRIBUTIONS) {
    assert.deepEqual(platformFromEtc(etc(files)), { platform, platform_family: family, platform_version: version }, name);
  }
  assert.deepEqual(platformFromEtc(etc({})), { platform: '', platform_family: '', platform_version: '' }, 'no release file');
});
