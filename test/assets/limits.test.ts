// Caps on one asset: what its download may weigh and its archive may unpack to, and the message naming the setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AssetTooLarge, DEFAULT_ASSET_LIMITS, assetLimitsOf } from '../../src/assets/limits.js';

test('defaults where nothing is set: 100 MB download, 500 MB unpacked, 10,000 entries', () => {
  assert.deepEqual(DEFAULT_ASSET_LIMITS, { max_download_bytes: 104_857_600, max_unpacked_bytes: 524_288_000, max_entries: 10_000 });
  assert.deepEqual(assetLimitsOf(undefined), DEFAULT_ASSET_LIMITS);
  assert.deepEqual(assetLimitsOf({}), DEFAULT_ASSET_LIMITS);
});

test('positive integers are taken; anything else falls back to the default', () => {
  assert.deepEqual(assetLimitsOf({ max_download_bytes: 1, max_unpacked_bytes: 2, max_entries: 3 }), {
    max_download_bytes: 1,
    max_unpacked_bytes: 2,
    max_entries: 3,
  });
  for (const bad of [0, -1, 1.5, '10', Number.MAX_SAFE_INTEGER + 1, null]) {
    assert.equal(assetLimitsOf({ max_entries: bad }).max_entries, 10_000, String(bad));
  }
});

test('an asset over a cap says which setting and its value, in bytes or entries', () => {
  assert.equal(
    new AssetTooLarge('the download of ruby-runtime is over', 'max_download_bytes', 100).message,
    'the download of ruby-runtime is over checkbridge.assets.max_download_bytes (100 bytes)',
  );
  assert.equal(new AssetTooLarge('x has more files than', 'max_entries', 5).message, 'x has more files than checkbridge.assets.max_entries (5 entries)');
  assert.ok(new AssetTooLarge('x', 'max_unpacked_bytes', 1) instanceof Error);
});
