// Sensu Go's occurrences over a legacy history, and each client record's agent labels as the rehearsal keeps them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientViews, v2Occurrences } from '../../src/rehearsal/v2-event.js';
import { planOf } from '../../src/rehearsal/plan.js';
import { settingsOf } from '../helpers/settings.js';

test('occurrences count consecutive results of the same status; the watermark their highest since the last ok', () => {
  assert.deepEqual(v2Occurrences([]), { occurrences: 0, watermark: 0 });
  assert.deepEqual(v2Occurrences([0]), { occurrences: 1, watermark: 1 });
  assert.deepEqual(v2Occurrences([0, 0, 0]), { occurrences: 3, watermark: 3 });
  assert.deepEqual(v2Occurrences([0, 0, 2]), { occurrences: 1, watermark: 1 }, 'ok to non-ok starts the watermark again');
  assert.deepEqual(v2Occurrences([0, 2, 2, 2]), { occurrences: 3, watermark: 3 });
  assert.deepEqual(v2Occurrences([2, 2, 2, 1]), { occurrences: 1, watermark: 3 }, 'a change between non-ok statuses keeps it');
  assert.deepEqual(v2Occurrences([2, 2, 2, 0]), { occurrences: 1, watermark: 3 });
});

test("a client record's view: its agent labels, made once per record whatever its timestamp", () => {
  const settings = settingsOf({
    client: { name: 'web-1', subscriptions: ['linux'] },
    checks: { disk: { command: 'check-disk -w :::disk.warning|90:::', subscribers: ['linux'], interval: 60 } },
  });
  const views = clientViews(planOf(settings));
  const record = { name: 'web-1', subscriptions: ['linux'], disk: { warning: 80 }, timestamp: 5 };
  const view = views(record);
  assert.equal(view.labels.disk_warning, '80');
  assert.equal(view.tokens.size, 0);
  assert.equal(views({ ...record, timestamp: 6 }), view, 'a keepalive moves the timestamp only');
  const other = views({ ...record, disk: { warning: 70 } });
  assert.notEqual(other, view);
  assert.equal(other.labels.disk_warning, '70');
});
