// The legacy loader's base settings and checkbridge's defaults for what a check leaves unset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseSettings, withCheckDefaults } from '../../src/config/defaults.js';

test('a bare check gets its name and every default; metric checks truncate their output', () => {
  assert.deepEqual(
    { ...withCheckDefaults('disk', { command: 'df' }) },
    {
      name: 'disk',
      command: 'df',
      type: 'standard',
      publish: true,
      ttl_status: 1,
      auto_resolve: true,
      handle: true,
      truncate_output_length: 255,
      occurrences: 1,
      refresh: 1800,
      truncate_output: false,
    },
  );
  assert.equal(withCheckDefaults('m', { type: 'metric' }).truncate_output, true);
});

test('what is set, even false or 0, is kept; null counts as unset; the name always wins', () => {
  const check = withCheckDefaults('disk', { name: 'other', publish: false, occurrences: 0, handle: null, truncate_output: false, type: 'metric' });
  assert.deepEqual([check.name, check.publish, check.occurrences, check.handle, check.truncate_output], ['disk', false, 0, true, false]);
});

test('proxy requests and hooks get their own defaults; the definition itself is not changed', () => {
  const definition = {
    proxy_requests: { client_attributes: { a: 1 }, splay_coverage: 0 },
    hooks: { critical: { command: 'x' }, '2': { command: 'y', timeout: 5, stdin: true } },
  };
  const check = withCheckDefaults('c', definition);
  assert.deepEqual(check.proxy_requests, { client_attributes: { a: 1 }, splay: false, splay_coverage: 90 });
  assert.deepEqual(check.hooks, { critical: { command: 'x', timeout: 60, stdin: false }, '2': { command: 'y', timeout: 5, stdin: true } });
  assert.deepEqual(definition.proxy_requests, { client_attributes: { a: 1 }, splay_coverage: 0 });
  assert.deepEqual(definition.hooks.critical, { command: 'x' });
});

test('the base settings: the legacy defaults, a fresh copy each time', () => {
  const base = baseSettings() as Record<string, any>;
  assert.deepEqual(base.sensu, { spawn: { limit: 12 }, keepalives: { thresholds: { warning: 120, critical: 180 } } });
  assert.deepEqual(base.transport, { name: 'rabbitmq', reconnect_on_error: true });
  for (const category of ['checks', 'filters', 'mutators', 'handlers', 'extensions']) assert.deepEqual(base[category], {});
  assert.equal(typeof base.client.name, 'string');
  assert.ok(base.client.name.length > 0);
  base.checks.x = {};
  assert.deepEqual((baseSettings() as Record<string, any>).checks, {});
});
