// The bridge's figures: Prometheus text read from the real outbox, and the summary /info shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bridgeSummary, prometheusText } from '../../src/bridge/metrics.js';
import { sqliteStore } from '../helpers/sqlite-store.js';

test('without a bridge the metrics say so and the summary is null', () => {
  assert.equal(prometheusText(null, 0), '# checkbridge: no bridge configured\n');
  assert.equal(bridgeSummary(null, 0), null);
});

test('the outbox depth, oldest age, counters and up gauge are exposed with their help and type', (t) => {
  const { outbox } = sqliteStore(t);
  outbox.add('default', 'web', 'disk', '{}', 10_000);
  const second = outbox.add('default', 'web', 'cpu', '{}', 20_000);
  outbox.add('default', 'db', 'cpu', '{}', 30_000);
  outbox.delivered(second);
  const [head] = outbox.heads(1);
  outbox.deadLetter(head!, 413, 'too large', 31_000);
  const text = prometheusText({ status: () => 'delivering', outbox }, 40_000);
  assert.match(text, /^# HELP checkbridge_bridge_outbox_depth Events waiting in the outbox\n# TYPE checkbridge_bridge_outbox_depth gauge\n/);
  const values = Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.split(' ')),
  );
  assert.deepEqual(values, {
    checkbridge_bridge_outbox_depth: '1',
    checkbridge_bridge_outbox_oldest_age_seconds: '10',
    checkbridge_bridge_delivered_total: '1',
    checkbridge_bridge_dead_lettered_total: '1',
    checkbridge_bridge_up: '1',
  });
  assert.match(text, /^# TYPE checkbridge_bridge_delivered_total counter$/m);
});

test('the up gauge is 0 and the summary carries the status while the backend refuses', (t) => {
  const { outbox } = sqliteStore(t);
  outbox.add('default', 'web', 'disk', '{}', 1_000);
  const view = { status: () => 'HTTP 503', outbox };
  assert.match(prometheusText(view, 5_000), /^checkbridge_bridge_up 0$/m);
  assert.deepEqual(bridgeSummary(view, 5_000), { status: 'HTTP 503', depth: 1, oldest_age_s: 4, delivered: 0, dead_lettered: 0 });
});
