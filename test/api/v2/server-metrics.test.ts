import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverMetrics } from '../../../src/api/v2/server-metrics.js';
import type { IntakeEvent } from '../../../src/intake/index.js';

const v2 = (event: object): IntakeEvent => ({ kind: 'v2', namespace: 'default', event }) as IntakeEvent;
const legacy = { event: { client: { name: 'web' }, check: { name: 'disk' } } } as unknown as IntakeEvent;
const series = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('sensu_go_events_processed{'))
    .sort();

test("Sensu Go's four event series start at 0; events counted before the first scrape are carried into it, by type", async () => {
  const metrics = serverMetrics();
  metrics.eventProcessed(v2({ check: { metadata: { name: 'c' } } }));
  metrics.eventProcessed(v2({ metrics: { points: [] } }));
  metrics.eventProcessed(v2({ metadata: {} }));
  metrics.eventProcessed(legacy);
  assert.deepEqual(series(await metrics.text()), [
    'sensu_go_events_processed{status="error",type="check"} 0',
    'sensu_go_events_processed{status="error",type="unknown"} 0',
    'sensu_go_events_processed{status="success",type="check"} 2',
    'sensu_go_events_processed{status="success",type="metrics"} 1',
    'sensu_go_events_processed{status="success",type="unknown"} 1',
  ]);
});

test('after the first scrape the counter counts on, with the process families beside it; two daemons never share counts', async () => {
  const [one, other] = [serverMetrics(), serverMetrics()];
  await one.text();
  one.eventProcessed(v2({ check: { metadata: { name: 'c' } }, metrics: { points: [] } }));
  const text = await one.text();
  assert.ok(series(text).includes('sensu_go_events_processed{status="success",type="check"} 1'));
  assert.match(text, /^process_cpu_user_seconds_total /m);
  assert.ok(series(await other.text()).includes('sensu_go_events_processed{status="success",type="check"} 0'));
});
