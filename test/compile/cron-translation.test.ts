// A legacy cron string as one Sensu Go accepts, with the same schedule, or why there is none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateCron } from '../../src/compile/cron-translation.js';

test('a cron Sensu Go reads the same way passes unchanged, zone prefix and @ macros included', () => {
  assert.deepEqual(translateCron('*/5 * * * *'), { cron: '*/5 * * * *', notes: [] });
  assert.deepEqual(translateCron('  CRON_TZ=Europe/Paris 0 9 * * 1-5 '), { cron: 'CRON_TZ=Europe/Paris 0 9 * * 1-5', notes: [] });
  assert.deepEqual(translateCron('@Daily'), { cron: '@daily', notes: [] });
});

test('day of week 7 (Sunday) is written 0, a range ending in 7 split in two, with a note', () => {
  assert.deepEqual(translateCron('0 0 * * 7'), { cron: '0 0 * * 0', notes: ['day of week 7 (Sunday) is written 0 (7 → 0)'] });
  assert.deepEqual(translateCron('0 0 * * 5-7'), { cron: '0 0 * * 5-6,0', notes: ['day of week 7 (Sunday) is written 0 (5-7 → 5-6,0)'] });
  assert.deepEqual(translateCron('0 0 * * 0,7'), { cron: '0 0 * * 0', notes: ['day of week 7 (Sunday) is written 0 (0,7 → 0)'] }, 'no day twice');
});

test('the sixth field the legacy scheduler ignored is dropped, with a note', () => {
  assert.deepEqual(translateCron('0 12 * * * 2030'), {
    cron: '0 12 * * *',
    notes: ['the sixth field (2030) was ignored by the legacy scheduler and is dropped'],
  });
});

test('no equivalent: 7 in a step, or a cron Sensu Go refuses', () => {
  assert.deepEqual(translateCron('0 0 * * 1-7/2'), { problem: "day of week 1-7/2 uses 7 in a step; Sensu Go's parser refuses 7" });
  assert.deepEqual(translateCron('0 0 * * */7'), { cron: '0 0 * * */7', notes: [] }, 'Sunday alone either way');
  const refused = translateCron('61 * * * *');
  assert.ok('problem' in refused && refused.problem.length > 0, JSON.stringify(refused));
});
