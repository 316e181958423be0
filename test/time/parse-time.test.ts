// The subset of Ruby's Time.parse that legacy time windows (subdue, filter when) rely on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidTime, parseTime } from '../../src/time/parse-time.js';

const seconds = (text: string) => parseTime(text)?.secondsOfDay;

test('clock times: hours, minutes, seconds and fractions; a.m. and p.m.', () => {
  assert.equal(seconds('9:30'), 9 * 3600 + 30 * 60);
  assert.equal(seconds('17:05:09'), 17 * 3600 + 5 * 60 + 9);
  assert.equal(seconds('17:05:09.25'), 17 * 3600 + 5 * 60 + 9.25);
  assert.equal(seconds('5PM'), 17 * 3600);
  assert.equal(seconds('12 am'), 0);
  assert.equal(seconds('12:15 p.m.'), 12 * 3600 + 15 * 60);
  assert.equal(seconds('24:00'), 24 * 3600);
  assert.deepEqual(parseTime('9:30'), { secondsOfDay: 34_200, offsetMinutes: null, date: null, ignoredZone: null });
});

test('zones: abbreviations, numeric offsets, and IANA names that legacy ignored (local time)', () => {
  assert.equal(parseTime('9:00 UTC')?.offsetMinutes, 0);
  assert.equal(parseTime('9:00 PDT')?.offsetMinutes, -420);
  assert.equal(parseTime('9:00 +05:30')?.offsetMinutes, 330);
  assert.equal(parseTime('9:00 -0800')?.offsetMinutes, -480);
  assert.deepEqual(parseTime('9:00 America/Vancouver'), { secondsOfDay: 32_400, offsetMinutes: null, date: null, ignoredZone: 'America/Vancouver' });
  assert.equal(parseTime('9:00 America')?.ignoredZone, 'America', 'the Am of America is no meridian');
});

test('full timestamps carry their date; a bare number is a day of the month, 9.30 the 30th', () => {
  assert.deepEqual(parseTime('2024-02-29 13:00'), { secondsOfDay: 46_800, offsetMinutes: null, date: { year: 2024, month: 2, day: 29 }, ignoredZone: null });
  assert.deepEqual(parseTime('9.30')?.date, { day: 30 });
  assert.deepEqual(parseTime('15')?.date, { day: 15 });
});

test('what Ruby would raise on is null: out of range, no minutes, not text', () => {
  for (const text of ['25:00', '24:01', '9:60', '13pm', '0 am', '32', '9.32', '2024-13-01 10:00', 'noon', '9:00 Jan', '9:00 +5:3x', ''])
    assert.equal(parseTime(text), null, JSON.stringify(text));
  for (const value of [900, null, undefined, { hour: 9 }]) assert.equal(isValidTime(value), false);
  assert.equal(isValidTime('9:00'), true);
});

test('a parsed bound is shared and frozen: a caller cannot change what the next caller reads', () => {
  const first = parseTime('2024-01-02 03:04')!;
  assert.equal(parseTime('2024-01-02 03:04'), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.date));
});
