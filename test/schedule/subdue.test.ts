import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inTimeWindow, inTimeWindows } from '../../src/schedule/subdue.js';

const utc = (iso: string) => Date.parse(iso + 'Z');
const at = (time: string) => utc(`2026-11-18T${time}`); // a Wednesday

test('an overnight window (TZ=UTC)', () => {
  const w = { begin: '5:00 PM', end: '8:00 AM' };
  const cases: [string, boolean][] = [
    ['16:59:59', false],
    ['17:00:00', true],
    ['23:59:59.999', true],
    ['00:00:00', true],
    ['07:59:59', true],
    ['08:00:00', false],
    ['12:00:00', false],
  ];
  for (const [time, expected] of cases) assert.equal(inTimeWindow(w, at(time), 'UTC'), expected, time);
});

test('a daytime window includes both ends', () => {
  const w = { begin: '9:00 AM', end: '5:00 PM' };
  assert.equal(inTimeWindow(w, at('09:00:00'), 'UTC'), true);
  assert.equal(inTimeWindow(w, at('17:00:00'), 'UTC'), true);
  assert.equal(inTimeWindow(w, at('17:00:01'), 'UTC'), false);
});

test('begin == end matches only that instant; 00:00/00:00 means practically never', () => {
  assert.equal(inTimeWindow({ begin: '00:00', end: '00:00' }, at('00:00:00'), 'UTC'), true);
  assert.equal(inTimeWindow({ begin: '00:00', end: '00:00' }, at('00:00:00.001'), 'UTC'), false);
});

test('zoned bounds: 10:00 PM PST to 6:00 AM PST', () => {
  const w = { begin: '10:00 PM PST', end: '6:00 AM PST' };
  const cases: [string, boolean][] = [
    ['06:30:00', true],
    ['13:59:00', true],
    ['14:00:00', false],
    ['15:00:00', false],
    ['05:00:00', false],
  ];
  for (const [time, expected] of cases) assert.equal(inTimeWindow(w, at(time), 'UTC'), expected, time);
});

test('a weekday overnight window does not spill into the next day, as in legacy', () => {
  const days = { days: { wednesday: [{ begin: '10:00 PM', end: '2:00 AM' }] } };
  assert.equal(inTimeWindows(days, utc('2026-11-18T23:00:00'), 'UTC'), true); // Wednesday 23:00
  assert.equal(inTimeWindows(days, utc('2026-11-18T01:00:00'), 'UTC'), true); // Wednesday 01:00
  assert.equal(inTimeWindows(days, utc('2026-11-19T01:00:00'), 'UTC'), false); // Thursday 01:00
});

test('all applies every day; the weekday uses the process zone', () => {
  assert.equal(inTimeWindows({ days: { all: [{ begin: '1:00 AM', end: '2:00 AM' }] } }, utc('2026-11-20T01:30:00'), 'UTC'), true);
  // 2026-11-19 03:00Z is still Wednesday in New York.
  assert.equal(inTimeWindows({ days: { wednesday: [{ begin: '9:00 PM', end: '11:00 PM' }] } }, utc('2026-11-19T03:00:00'), 'America/New_York'), true);
});

test('a zone name legacy did not know is ignored: the time is process local time (here America/New_York)', () => {
  const local = 'America/New_York';
  const window = { begin: '17:00 America/Vancouver', end: '18:00 America/Vancouver' };
  const newYork = (time: string) => Date.parse(`2026-11-18T${time}-05:00`);
  assert.equal(inTimeWindow(window, newYork('16:59:59'), local), false);
  assert.equal(inTimeWindow(window, newYork('17:00:00'), local), true, '17:00 New York, not Vancouver');
  assert.equal(inTimeWindow(window, newYork('18:00:00'), local), true);
  assert.equal(inTimeWindow(window, newYork('20:30:00'), local), false, '17:30 in Vancouver is outside');
  assert.equal(inTimeWindows({ days: { wednesday: [window] } }, newYork('17:30:00'), local), true);
  // A zone in Ruby's table still applies.
  assert.equal(inTimeWindow({ begin: '17:00 PST', end: '18:00 PST' }, newYork('20:30:00'), local), true);
});
