// How legacy parse-cron read crons that cron-parser refuses: elements that match nothing, and what ran instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLegacyCron } from '../../src/time/legacy-cron-quirks.js';

const read = (cron: string) => readLegacyCron(cron.split(' '));

test('a cron with nothing that matches nothing adds nothing to the reading', () => {
  assert.equal(read('0 12 * * *'), null);
  assert.equal(read('*/15 0-23 1,15 jan-jun mon-fri'), null);
  assert.equal(read('0 0 * * 0,7'), null, 'Sunday as 0 and 7');
  assert.equal(read('0 0 31 4,5 *'), null, '31 occurs in May');
});

test('what this reading does not decide is left to cron-parser', () => {
  assert.equal(read('0 25 * * *'), null, 'an hour past 23 is refused, not read');
  assert.equal(read('*/0 * * * *'), null);
  assert.equal(read('L * * * *'), null);
  assert.equal(read('0 0 * 12-1 *'), null, 'an empty month range made legacy fail: it stays invalid');
});

test('a day that never occurs in the chosen months: never fires, legacy ran it on the 1st', () => {
  assert.deepEqual(read('0 12 31 2 *'), {
    notes: ['day-of-month 31 never occurs in month 2'],
    expression: '0 12 * 2 *',
    fires: false,
    legacyFallback: 'legacy parse-cron ran it on the 1st of the month instead',
  });
  assert.deepEqual(read('0 0 30 feb *')!.notes, ['day-of-month 30 never occurs in month 2'], 'month names read');
  assert.deepEqual(read('0 0 32 * *')!.notes, ['day-of-month 32 never matches (1-31)']);
});

test('a restricted day field left empty drops out when the other day field matches', () => {
  assert.deepEqual(read('0 12 31 2 mon'), {
    notes: ['day-of-month 31 never occurs in month 2'],
    expression: '0 12 * 2 mon',
    fires: true,
    legacyFallback: null,
  });
});

test('day-of-week past 7 never matches; what is left is kept, Sunday once', () => {
  assert.deepEqual(read('0 0 * * 1,8'), {
    notes: ['day-of-week 8 never matches (0-7, 7 is Sunday)'],
    expression: '0 0 * * 1',
    fires: true,
    legacyFallback: null,
  });
  assert.equal(read('0 0 * * 7-9')!.expression, '0 0 * * 0');
  assert.deepEqual(read('0 0 * * 7-9')!.notes, ['day-of-week 8,9 never matches (0-7, 7 is Sunday)']);
});

test('reversed ranges are empty (no wrap-around): a minute or hour left empty ran at minute 0 or hour 0', () => {
  assert.deepEqual(read('5-1 * * * *'), {
    notes: ['minute range 5-1 is empty (ranges do not wrap around)'],
    expression: '* * * * *',
    fires: false,
    legacyFallback: 'legacy parse-cron ran it at minute 0 instead',
  });
  assert.equal(read('0 22-2 * * *')!.legacyFallback, 'legacy parse-cron ran it in hour 0 instead');
  const partly = read('0,30 22-2,5 * * *')!;
  assert.deepEqual([partly.expression, partly.fires], ['0,30 5 * * *', true]);
});
