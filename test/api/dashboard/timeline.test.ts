import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTimeline } from '../../../src/api/dashboard/timeline.js';
import { settingsOf } from '../../helpers/settings.js';

const settings = settingsOf({
  client: { name: 'web-1', address: '127.0.0.1', subscriptions: ['web'] },
  checks: {
    disk: { command: 'true', interval: 600, subscribers: ['web'] },
    nightly: { command: 'true', cron: '0 3 * * *', subscribers: ['web'] },
    quiet: { command: 'true', interval: 60, subscribers: ['web'], publish: false },
    solo: { command: 'true', interval: 60, standalone: true, publish: false },
    // The window's zone is written out: the bands do not depend on the machine's.
    lunch: { command: 'true', interval: 600, subscribers: ['web'], subdue: { days: { all: [{ begin: '10:00 UTC', end: '11:00 UTC' }] } } },
  },
});
const FROM = Date.UTC(2024, 2, 5, 9, 30, 20);
const HOUR = 3600_000;

test('timeline: an interval check runs every interval from its splay offset, the same offset in each interval', () => {
  const timeline = checkTimeline(settings, 'disk', FROM, 3);
  assert.deepEqual([timeline.check, timeline.from, timeline.to], ['disk', '2024-03-05T09:30:20.000Z', '2024-03-05T12:30:20.000Z']);
  assert.deepEqual(timeline.timing, { kind: 'interval', interval_s: 600 });
  assert.equal(timeline.executions.length, 18);
  const instants = timeline.executions.map((e) => Date.parse(e.at));
  assert.ok(instants[0]! >= FROM && instants[0]! < FROM + 600_000, `first at ${timeline.executions[0]!.at}`);
  assert.ok(instants.every((at, i) => i === 0 || at - instants[i - 1]! === 600_000));
  assert.equal(timeline.splay?.interval_s, 600);
  assert.equal(timeline.splay?.offset_s, Math.round((instants[0]! % 600_000) / 1000));
  assert.equal(typeof timeline.splay?.key, 'string');
  assert.deepEqual(checkTimeline(settings, 'disk', FROM + 5 * HOUR, 1).splay, timeline.splay, 'every window shows the same splay');
  assert.deepEqual(timeline.subdue_bands, []);
  assert.ok(timeline.executions.every((e) => !e.subdued));
});

test('timeline: a cron check fires at its schedule and has no splay', () => {
  const timeline = checkTimeline(settings, 'nightly', FROM, 24);
  assert.deepEqual(timeline.timing, { kind: 'cron', cron: '0 3 * * *' });
  assert.equal(timeline.executions.length, 1);
  assert.equal(timeline.splay, null);
});

test('timeline: an unpublished subscription check never runs; an unpublished standalone one does', () => {
  assert.deepEqual(checkTimeline(settings, 'quiet', FROM, 1).executions, []);
  assert.equal(checkTimeline(settings, 'quiet', FROM, 1).splay, null);
  assert.equal(checkTimeline(settings, 'solo', FROM, 1).executions.length, 60);
});

test('timeline: subdue windows are minute bands within the window, and executions inside them are marked subdued', () => {
  const timeline = checkTimeline(settings, 'lunch', FROM, 3);
  // Both ends of a window are inclusive: the first minute out of it is 11:01.
  assert.deepEqual(timeline.subdue_bands, [{ start: '2024-03-05T10:00:00.000Z', end: '2024-03-05T11:01:00.000Z' }]);
  for (const { at, subdued } of timeline.executions) assert.equal(subdued, at >= '2024-03-05T10:00' && at <= '2024-03-05T11:00:00.000Z', at);
  assert.ok(timeline.executions.some((e) => e.subdued));
  const inside = checkTimeline(settings, 'lunch', Date.UTC(2024, 2, 5, 10, 30, 20), 1);
  assert.deepEqual(inside.subdue_bands, [{ start: '2024-03-05T10:30:20.000Z', end: '2024-03-05T11:01:00.000Z' }], 'a band open at the start begins there');
  const late = checkTimeline(settings, 'lunch', Date.UTC(2024, 2, 5, 9, 0), 1.5);
  assert.deepEqual(late.subdue_bands, [{ start: '2024-03-05T10:00:00.000Z', end: '2024-03-05T10:30:00.000Z' }], 'a band open at the end ends there');
});
