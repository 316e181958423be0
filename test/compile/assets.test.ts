// emitAssets and runtimeAssetsOf: the legacy `assets` category as core/v2 Asset resources, and runtime_assets carried as names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitAssets, runtimeAssetsOf } from '../../src/compile/assets.js';
import { newContext } from '../../src/compile/context.js';
import { settingsOf } from '../helpers/settings.js';

const sha512 = 'a'.repeat(128);

test('runtime_assets: a non-empty list becomes its names as strings; anything else is null', () => {
  assert.deepEqual(runtimeAssetsOf({ runtime_assets: ['tools', 'ruby'] }), ['tools', 'ruby']);
  assert.deepEqual(runtimeAssetsOf({ runtime_assets: ['a', 1] }), ['a', '1']);
  for (const none of [undefined, {}, { runtime_assets: [] }, { runtime_assets: 'tools' }]) assert.equal(runtimeAssetsOf(none), null, JSON.stringify(none));
});

test('a single-build asset keeps its fields flat, with nulls where none were given; assets are sorted by name and recorded', () => {
  const settings = settingsOf({
    assets: {
      zeta: { url: 'https://example.com/z.tar.gz', sha512 },
      alpha: { url: 'https://example.com/a.tar.gz', sha512, filters: ['entity.system.os == "linux"'], headers: { Authorization: 'Bearer x' } },
    },
  });
  const ctx = newContext(settings, 'ops', () => undefined);
  const assets = emitAssets(settings, ctx);
  assert.deepEqual(
    assets.map((a) => [a.type, a.metadata.namespace, a.metadata.name]),
    [
      ['Asset', 'ops', 'alpha'],
      ['Asset', 'ops', 'zeta'],
    ],
  );
  assert.deepEqual(assets[0]!.spec, {
    url: 'https://example.com/a.tar.gz',
    sha512,
    filters: ['entity.system.os == "linux"'],
    headers: { Authorization: 'Bearer x' },
  });
  assert.deepEqual(assets[1]!.spec, { url: 'https://example.com/z.tar.gz', sha512, filters: null, headers: null });
  assert.deepEqual(ctx.became.get('assets.alpha'), ['Asset/alpha']);
});

test('builds are emitted each with its own fields; the asset headers fill in where a build has none', () => {
  const settings = settingsOf({
    assets: {
      multi: {
        headers: { 'X-Shared': '1' },
        builds: [
          { url: 'https://example.com/linux.tar.gz', sha512, filters: ['entity.system.os == "linux"'] },
          { url: 'https://example.com/mac.tar.gz', sha512, headers: { 'X-Own': '2' } },
        ],
      },
    },
  });
  const [asset] = emitAssets(
    settings,
    newContext(settings, 'ops', () => undefined),
  );
  assert.deepEqual(asset!.spec, {
    builds: [
      { url: 'https://example.com/linux.tar.gz', sha512, filters: ['entity.system.os == "linux"'], headers: { 'X-Shared': '1' } },
      { url: 'https://example.com/mac.tar.gz', sha512, filters: null, headers: { 'X-Own': '2' } },
    ],
  });
});
