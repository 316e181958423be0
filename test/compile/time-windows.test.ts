// Legacy time windows compiled for Sensu Go: a filter expression over event.timestamp, and subdues.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { windowsExpression, windowsToSubdues } from '../../src/compile/time-windows.js';

/** The compiled expression evaluated as the filter engine would, for an instant. */
function inWindow(expression: string, iso: string): boolean {
  return new Function('event', `return ${expression};`)({ timestamp: Date.parse(iso) / 1000 }) as boolean;
}

test('an expression over event.timestamp: a fixed-zone window, both ends inclusive', () => {
  const compiled = windowsExpression({ days: { all: [{ begin: '09:00 UTC', end: '17:00 UTC' }] } });
  assert.ok('expression' in compiled);
  assert.equal(inWindow(compiled.expression, '2024-03-05T08:59:59Z'), false);
  assert.equal(inWindow(compiled.expression, '2024-03-05T09:00:00Z'), true);
  assert.equal(inWindow(compiled.expression, '2024-03-05T17:00:00Z'), true);
  assert.equal(inWindow(compiled.expression, '2024-03-05T17:00:01Z'), false);
});

test('an overnight window covers the end of its own day and the start of the same day (the legacy quirk)', () => {
  const compiled = windowsExpression({ days: { all: [{ begin: '22:00 +00:00', end: '02:00 +00:00' }] } });
  assert.ok('expression' in compiled);
  assert.equal(inWindow(compiled.expression, '2024-03-05T23:30:00Z'), true);
  assert.equal(inWindow(compiled.expression, '2024-03-05T01:00:00Z'), true);
  assert.equal(inWindow(compiled.expression, '2024-03-05T12:00:00Z'), false);
});

test('no windows never match; an unparseable or dated bound has no translation', () => {
  const none = windowsExpression({});
  assert.ok('expression' in none && inWindow(none.expression, '2024-03-05T12:00:00Z') === false);
  assert.deepEqual(windowsExpression({ days: { monday: [{ begin: 'soon', end: '10:00' }] } }), {
    problem: 'window {"begin":"soon","end":"10:00"} has a time legacy could not parse',
  });
  assert.deepEqual(windowsToSubdues({ days: { all: [{ begin: '2024-01-01 10:00', end: '11:00' }] } }, 0), {
    problem: 'window {"begin":"2024-01-01 10:00","end":"11:00"} names a date; only times of day have a translation',
  });
});

test("subdues: one RFC 3339 window per legacy window, repeated by day, in the bound's zone or the local offset", () => {
  assert.deepEqual(windowsToSubdues({ days: { all: [{ begin: '9:30 +02:00', end: '24:00 +02:00' }], friday: [{ begin: '1 PM', end: '2 PM' }] } }, -300), {
    subdues: [
      { begin: '2000-01-01T09:30:00+02:00', end: '2000-01-02T00:00:00+02:00', repeat: ['daily'] },
      { begin: '2000-01-01T13:00:00-05:00', end: '2000-01-01T14:00:00-05:00', repeat: ['fridays'] },
    ],
    usedLocal: true,
  });
});

test('subdues: an overnight window becomes its two same-day pieces; bounds in two zones are refused', () => {
  assert.deepEqual(windowsToSubdues({ days: { all: [{ begin: '22:00 UTC', end: '06:00 UTC' }] } }, 60), {
    subdues: [
      { begin: '2000-01-01T00:00:00+00:00', end: '2000-01-01T06:00:00+00:00', repeat: ['daily'] },
      { begin: '2000-01-01T22:00:00+00:00', end: '2000-01-02T00:00:00+00:00', repeat: ['daily'] },
    ],
    usedLocal: false,
  });
  assert.deepEqual(windowsToSubdues({ days: { all: [{ begin: '22:00 UTC', end: '06:00 CET' }] } }, 0), {
    problem: 'window {"begin":"22:00 UTC","end":"06:00 CET"} has bounds in different zones',
  });
});
