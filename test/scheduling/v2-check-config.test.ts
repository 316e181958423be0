// timingOfConfig and buildV2Request: when a stored v2 CheckConfig runs, and the request it sends, read from a real SQLite store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildV2Request, timingOfConfig } from '../../src/scheduling/v2-check-config.js';
import { sqliteStore as storeFor } from '../helpers/sqlite-store.js';

const check = (extra: Record<string, unknown>) => ({ metadata: { name: 'disk' }, command: 'true', ...extra });

test('an interval runs every so many seconds, phased on namespace/name', () => {
  assert.deepEqual(timingOfConfig('ops', check({ interval: 60 })), { kind: 'interval', intervalMs: 60_000, key: 'ops/disk' });
});

test('a cron wins over an interval; @every is an interval; an empty cron leaves the interval', () => {
  const cron = timingOfConfig('ops', check({ cron: '*/5 * * * *', interval: 60 }));
  assert.equal(cron.kind, 'cron');
  assert.equal(cron.kind === 'cron' && cron.schedule.expression, '*/5 * * * *');
  assert.deepEqual(timingOfConfig('ops', check({ cron: '@every 1h30m' })), { kind: 'interval', intervalMs: 5_400_000, key: 'ops/disk' });
  assert.deepEqual(timingOfConfig('ops', check({ cron: '', interval: 10 })), { kind: 'interval', intervalMs: 10_000, key: 'ops/disk' });
});

test('a cron Sensu Go refuses never runs and says why; no whole positive interval never runs', () => {
  assert.deepEqual(timingOfConfig('ops', check({ cron: '0 0 L * *', interval: 60 })), {
    kind: 'none',
    problem: 'check cron string is invalid: failed to parse int from L',
  });
  for (const interval of [0, 2.5, -60, '60', undefined]) assert.deepEqual(timingOfConfig('ops', check({ interval })), { kind: 'none' }, String(interval));
});

test('the request carries the config in its namespace, issued in whole seconds, with the hooks and assets that exist', (t) => {
  const store = storeFor(t);
  store.resources.putResource('HookConfig', 'ops', 'ps', { metadata: { name: 'ps', namespace: 'ops' }, command: 'ps aux' });
  store.resources.putResource('HookConfig', 'other', 'df', { metadata: { name: 'df', namespace: 'other' }, command: 'df' });
  store.resources.putResource('Asset', 'ops', 'tools', { metadata: { name: 'tools', namespace: 'ops' }, url: 'https://example.com/t.tar.gz' });
  const config = check({ interval: 60, check_hooks: [{ critical: ['ps', 'df'] }, { 'non-zero': ['ps'] }], runtime_assets: ['tools', 'missing'] });
  const request = buildV2Request(store.resources, 'ops', config, 1_700_000_000_999);
  assert.equal(request.issued, 1_700_000_000);
  assert.deepEqual(request.config.metadata, { name: 'disk', namespace: 'ops' });
  assert.deepEqual(
    request.hooks.map((h) => h.command),
    ['ps aux'],
    'each hook once, from the namespace only',
  );
  assert.deepEqual(
    request.assets.map((a) => a.metadata?.name),
    ['tools'],
  );
  assert.equal(request.hook_assets, undefined, 'no hook names an asset');
  assert.deepEqual(config.metadata, { name: 'disk' }, 'the stored config is not changed');
});

test('the assets each hook names travel per hook', (t) => {
  const store = storeFor(t);
  store.resources.putResource('HookConfig', 'ops', 'ps', { metadata: { name: 'ps', namespace: 'ops' }, command: 'ps', runtime_assets: ['procps', 'gone'] });
  store.resources.putResource('HookConfig', 'ops', 'df', { metadata: { name: 'df', namespace: 'ops' }, command: 'df', runtime_assets: [] });
  store.resources.putResource('Asset', 'ops', 'procps', { metadata: { name: 'procps', namespace: 'ops' }, url: 'https://example.com/p.tar.gz' });
  const request = buildV2Request(store.resources, 'ops', check({ check_hooks: [{ critical: ['ps'] }, { warning: ['df'] }] }), 0);
  assert.deepEqual(Object.keys(request.hook_assets!), ['ps']);
  assert.deepEqual(
    request.hook_assets!.ps!.assets.map((a) => a.metadata?.name),
    ['procps'],
  );
  assert.deepEqual(request.assets, []);
});
