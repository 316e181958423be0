// How a legacy check is timed: an aligned, splayed interval or a cron, and the instants that follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instantsBetween, nextInstant, spreadSeconds, timingOf } from '../../src/schedule/plan.js';
import { standaloneSplayKey, subscriptionSplayKey } from '../../src/schedule/splay.js';
import type { CheckDefinition } from '../../src/config/index.js';

const check = (fields: Record<string, unknown>) => ({ name: 'disk', command: 'true', ...fields }) as unknown as CheckDefinition;

test('cron wins over interval; standalone checks splay on client and check, subscription ones on the check', () => {
  assert.equal(timingOf(check({ cron: '*/15 * * * *', interval: 60 }), 'web').kind, 'cron');
  assert.deepEqual(timingOf(check({ interval: 60 }), 'web'), { kind: 'interval', intervalMs: 60_000, key: subscriptionSplayKey('disk') });
  assert.deepEqual(timingOf(check({ interval: 30, standalone: true }), 'web'), {
    kind: 'interval',
    intervalMs: 30_000,
    key: standaloneSplayKey('web', 'disk'),
  });
  assert.notEqual(standaloneSplayKey('web', 'disk'), subscriptionSplayKey('disk'));
});

test('no interval, a non-positive one, or an unreadable cron without one: never scheduled', () => {
  for (const fields of [{}, { interval: 0 }, { interval: -5 }, { interval: '60' }, { cron: 'not a cron' }]) {
    const timing = timingOf(check(fields), 'web');
    assert.deepEqual(timing, { kind: 'none' }, JSON.stringify(fields));
    assert.equal(nextInstant(timing, 0), null);
    assert.deepEqual(instantsBetween(timing, 0, 1e9), []);
    assert.equal(spreadSeconds(timing, 0), 0);
  }
  assert.deepEqual(timingOf(check({ cron: 'not a cron', interval: 10 }), 'web').kind, 'interval', 'an unreadable cron falls back to the interval');
});

test('an interval: instants one interval apart, the first within an interval of the start, at or after it', () => {
  const timing = timingOf(check({ interval: 60 }), 'web');
  const from = Date.parse('2024-03-05T12:00:00Z');
  const instants = instantsBetween(timing, from, from + 10 * 60_000);
  assert.equal(instants.length, 10);
  assert.ok(instants[0]! >= from && instants[0]! < from + 60_000);
  assert.deepEqual(
    instants.slice(1).map((t, i) => t - instants[i]!),
    Array(9).fill(60_000),
  );
  assert.equal(nextInstant(timing, instants[3]!), instants[3], 'at or after: an instant is its own next');
  assert.equal(instantsBetween(timing, from, from + 10 * 60_000, 4).length, 4, 'bounded by the limit');
  assert.equal(spreadSeconds(timing, from), 60);
});

test('a cron: strictly after the start, on the matching minutes; the spread is the time to the next run', () => {
  const timing = timingOf(check({ cron: '*/15 * * * *' }), 'web');
  const from = Date.parse('2024-03-05T12:00:00Z');
  assert.deepEqual(
    instantsBetween(timing, from, from + 3_600_000),
    [15, 30, 45].map((m) => from + m * 60_000),
  );
  assert.equal(nextInstant(timing, from), from + 15 * 60_000);
  assert.equal(spreadSeconds(timing, from + 5 * 60_000), 600);
});
