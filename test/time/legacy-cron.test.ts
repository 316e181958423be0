import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLegacyCron, cronWarning, nextCronInstant } from '../../src/time/legacy-cron.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { Scheduler } from '../../src/schedule/scheduler.js';
import { timingOf } from '../../src/schedule/plan.js';
import { withCheckDefaults } from '../../src/config/defaults.js';

const T0 = Date.parse('2025-06-15T10:30:00.000Z');

test('crons legacy accepted that never fire as written load, never fire, and say so', () => {
  const never: [string, string][] = [
    ['0 0 31 2 *', 'day-of-month 31 never occurs in month 2'],
    ['0 0 30 feb *', 'day-of-month 30 never occurs in month 2'],
    ['0 0 * * 8', 'day-of-week 8 never matches (0-7, 7 is Sunday)'],
    ['0 0 * * 5-1', 'day-of-week range 5-1 is empty (ranges do not wrap around)'],
    ['0 0 * * fri-mon', 'day-of-week range 5-1 is empty (ranges do not wrap around)'],
    ['0 5-1 * * *', 'hour range 5-1 is empty (ranges do not wrap around)'],
    ['0 0 32 * *', 'day-of-month 32 never matches (1-31)'],
  ];
  for (const [expression, note] of never) {
    const schedule = parseLegacyCron(expression);
    assert.ok(schedule, expression);
    assert.equal(schedule.fires, false, expression);
    assert.deepEqual(schedule.notes, [note], expression);
    assert.ok(
      cronWarning(expression, schedule)!.startsWith(
        `check cron "${expression}" never fires as written: ${note}; checkbridge never runs it (legacy parse-cron ran it `,
      ),
      expression,
    );
  }
  assert.match(cronWarning('0 0 31 2 *', parseLegacyCron('0 0 31 2 *')!)!, /legacy parse-cron ran it on the 1st of the month instead/);
});

test('an element that matches nothing drops out; the rest runs, and the warning says as what', () => {
  const cases: [string, string, string][] = [
    ['0 0 * * 1,8', '0 0 * * 1', '2025-06-16T00:00:00.000Z'],
    ['0 0 15,31 2 *', '0 0 15 2 *', '2026-02-15T00:00:00.000Z'],
    ['0 0 15 * 8', '0 0 15 * *', '2025-07-15T00:00:00.000Z'],
    ['0 0 5-1 * 1', '0 0 * * 1', '2025-06-16T00:00:00.000Z'],
  ];
  for (const [written, runs, next] of cases) {
    const schedule = parseLegacyCron(written)!;
    assert.equal(schedule.fires, true, written);
    assert.equal(schedule.expression, runs, written);
    assert.ok(cronWarning(written, schedule)!.endsWith(`; runs as "${runs}"`), written);
    assert.equal(new Date(nextCronInstant({ ...schedule, timezone: 'UTC' }, T0)).toISOString(), next, written);
  }
});

test('ordinary crons have no warning; what legacy refused stays refused', () => {
  for (const ok of ['*/5 * * * *', '0 0 * * 7', '0 0 29 2 *', '@daily', '0 0 31 * *']) {
    const schedule = parseLegacyCron(ok)!;
    assert.equal(schedule.fires, true, ok);
    assert.equal(cronWarning(ok, schedule), null, ok);
  }
  for (const bad of ['0 0 1 5-1 *', '60 * * * *', '0 0 * 13 *', 'x 0 31 2 *', '* * * *']) assert.equal(parseLegacyCron(bad), null, bad);
});

test('the scheduler neither fires nor spins on a cron that never fires', () => {
  const clock = new ManualClock(T0);
  const fired: number[] = [];
  const scheduler = new Scheduler(clock, (_name, at) => fired.push(at));
  const check = withCheckDefaults('never', { command: 'true', cron: '0 0 31 2 *', subscribers: ['all'] });
  const timing = timingOf(check, 'client');
  assert.equal(timing.kind, 'none');
  scheduler.set('never', timing);
  clock.advanceBy(3 * 366 * 86_400_000);
  assert.deepEqual(fired, []);
});
