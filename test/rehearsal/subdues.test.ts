// Whether an instant falls in a check's compiled `subdues` (repeated RFC 3339 windows), as the rehearsal reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inSubdues } from '../../src/rehearsal/subdues.js';

const at = (iso: string) => Date.parse(iso) / 1000;

test("a daily window: begin included, end excluded, read in the window's own offset", () => {
  const subdues = [{ begin: '2000-01-01T22:00:00+02:00', end: '2000-01-02T00:00:00+02:00', repeat: ['daily'] }];
  assert.equal(inSubdues(subdues, at('2024-03-05T19:59:59Z')), false);
  assert.equal(inSubdues(subdues, at('2024-03-05T20:00:00Z')), true, '22:00 at +02:00');
  assert.equal(inSubdues(subdues, at('2024-03-05T21:59:59Z')), true);
  assert.equal(inSubdues(subdues, at('2024-03-05T22:00:00Z')), false, 'midnight is the end, not in it');
});

test("repeats: a weekday name, weekdays, weekends; the weekday is the one in the window's offset", () => {
  const window = (repeat: string[], offset = 'Z') => [{ begin: `2000-01-01T00:00:00${offset}`, end: `2000-01-02T00:00:00${offset}`, repeat }];
  const tuesday = at('2024-03-05T12:00:00Z');
  const saturday = at('2024-03-09T12:00:00Z');
  assert.equal(inSubdues(window(['tuesdays']), tuesday), true);
  assert.equal(inSubdues(window(['mondays', 'wednesdays']), tuesday), false);
  assert.equal(inSubdues(window(['weekdays']), tuesday), true);
  assert.equal(inSubdues(window(['weekdays']), saturday), false);
  assert.equal(inSubdues(window(['weekends']), saturday), true);
  assert.equal(inSubdues(window(['tuesdays'], '-13:00'), tuesday), false, 'still Monday at -13:00');
  assert.equal(inSubdues(window(['mondays'], '-13:00'), tuesday), true);
});

test('unreadable windows and no repeat are skipped; no windows, never', () => {
  const now = at('2024-03-05T12:00:00Z');
  assert.equal(inSubdues([], now), false);
  assert.equal(inSubdues([{ begin: '00:00', end: '23:59', repeat: ['daily'] }], now), false);
  assert.equal(inSubdues([{ begin: '2000-01-01T00:00:00Z', end: '2000-01-02T00:00:00Z' }], now), false);
});
