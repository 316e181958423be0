// The wire-type table, pure: each kind of field refused as Go's encoding/json would refuse it, by its path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeAs, typeProblem } from '../../src/v2/index.js';

test('typeProblem: each field type, nested messages and lists, by path; null and unknown fields pass', () => {
  const cases: [string, unknown, string | null][] = [
    ['Entity', { metadata: { labels: 'x' } }, 'entity.metadata.labels must be an object of strings'],
    ['Entity', { system: { hostname: 12345 } }, 'entity.system.hostname must be a string'],
    ['Entity', { system: { arm_version: 2 ** 31 } }, 'entity.system.arm_version must be a 32-bit integer'],
    ['Entity', { deregister: 'yes' }, 'entity.deregister must be true or false'],
    ['Entity', { last_seen: 1.5 }, 'entity.last_seen must be a 64-bit integer'],
    ['Entity', { system: { processes: [{ name: 1 }] } }, 'entity.system.processes[0].name must be a string'],
    ['Event', { check: { duration: '1s' } }, 'event.check.duration must be a number'],
    ['Event', { check: { status: -1 } }, 'event.check.status must be an unsigned 32-bit integer'],
    ['Event', { check: { hooks: [{ status: -1, timeout: -1 }] } }, 'event.check.hooks[0].timeout must be an unsigned 32-bit integer'],
    ['Event', { metrics: { points: [{ value: 'x' }] } }, 'event.metrics.points[0].value must be a number'],
    // Several wrong fields: the first in the schema's order is named, whatever the body's order.
    ['Event', { check: { status: 'x', interval: 'y' }, timestamp: 'now' }, 'event.timestamp must be a 64-bit integer'],
    ['Event', { check: { status: 'x', interval: 'y' } }, 'event.check.interval must be an unsigned 32-bit integer'],
    ['Event', { pipelines: {} }, 'event.pipelines must be a list of objects'],
    ['CheckConfig', { publish: 'yes' }, 'checkConfig.publish must be true or false'],
    ['HookConfig', { timeout: '10' }, 'hookConfig.timeout must be an unsigned 32-bit integer'],
    ['Entity', { metadata: { labels: null, name: null }, system: null, subscriptions: [null], unknown: { a: 1 } }, null],
    ['Event', { check: { status: 4294967295, duration: 0.5, hooks: [{ status: -1 }] } }, null],
  ];
  for (const [kind, value, expected] of cases) assert.equal(typeProblem(kind, value), expected, `${kind} ${JSON.stringify(value)}`);
  assert.throws(() => typeProblem('Nope', {}), /no wire type Nope/);
});

test('fields Sensu Go 6.12 does not have or never reads from JSON are unknown fields: any value passes and is dropped', () => {
  // ttl_status, asset_status and fallback_pipeline came in a later Sensu Go; CheckConfig's scheduler is json:"-".
  const check = { command: 'true', ttl_status: 'x', asset_status: 1, fallback_pipeline: 3, scheduler: 5 };
  assert.equal(typeProblem('CheckConfig', check), null);
  assert.deepEqual(decodeAs('CheckConfig', check), { value: { command: 'true' }, problem: null });
  assert.equal(typeProblem('Event', { fallback_pipeline: 'x', check: { ttl_status: 'x', asset_status: {} } }), null);
  assert.deepEqual(decodeAs('Event', { sequence: 1, fallback_pipeline: { name: 'p' } }).value, { sequence: 1 });
});
