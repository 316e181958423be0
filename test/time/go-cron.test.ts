// A v2 check's cron as Sensu Go's schedulerd reads it (robfig/cron v3 ParseStandard).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoCron, nextCronInstant } from '../../src/time/index.js';

test('@every is a period of whole seconds, at least one', () => {
  assert.deepEqual(parseGoCron('@every 2s'), { kind: 'every', everyMs: 2000 });
  assert.deepEqual(parseGoCron('@every 1m30s'), { kind: 'every', everyMs: 90_000 });
  assert.deepEqual(parseGoCron('CRON_TZ=Europe/Paris @every 2.5s'), { kind: 'every', everyMs: 2000 });
  assert.deepEqual(parseGoCron('@every 10ms'), { kind: 'every', everyMs: 1000 });
});

test('descriptors and five fields run in the CRON_TZ zone; what robfig refuses is invalid, with its reason', () => {
  const at = Date.parse('2026-01-01T00:00:00Z');
  const daily = parseGoCron('TZ=Asia/Kathmandu @daily');
  assert.equal(daily.kind, 'cron');
  if (daily.kind === 'cron') assert.equal(new Date(nextCronInstant(daily.schedule, at)).toISOString(), '2026-01-01T18:15:00.000Z');
  const weekdays = parseGoCron('0 9 ? * mon-fri');
  assert.equal(weekdays.kind, 'cron');
  if (weekdays.kind === 'cron') assert.equal(weekdays.schedule.timezone, undefined);
  assert.deepEqual(parseGoCron('0 0 * * * *'), { kind: 'invalid', problem: 'expected exactly 5 fields, found 6: 0 0 * * * *' });
  assert.deepEqual(parseGoCron('0 0 * * 7'), { kind: 'invalid', problem: 'end of range (7) above maximum (6): 7' });
  assert.deepEqual(parseGoCron('@reboot'), { kind: 'invalid', problem: 'unrecognized descriptor: @reboot' });
});

test('what robfig accepts but never runs, or the engine cannot read, is invalid too: it would throw out of the scheduler', () => {
  for (const spec of ['0 0 30 2 *', '0 0 31 4 *', '0' + ',0'.repeat(600) + ' * * * *', '@every ' + '9'.repeat(400) + 'h']) {
    const parsed = parseGoCron(spec);
    assert.equal(parsed.kind, 'invalid', spec.slice(0, 40));
  }
  assert.equal(parseGoCron('0 0 29 2 *').kind, 'cron', 'a leap day runs');
});
