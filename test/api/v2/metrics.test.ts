import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';

const NS = '/api/core/v2/namespaces/default';
const value = (text: string, series: string) => new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1];

test('/metrics: process and runtime families beside ours, and events counted under Sensu Go name and labels', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/empty.json': {} });
  const auth = `Bearer ${await adminToken(v2)}`;
  const before = String((await getJson(`${v2}/metrics`)).body);
  for (const family of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'process_start_time_seconds',
    'nodejs_heap_size_used_bytes',
    'checkbridge_agents_connected',
  ])
    assert.match(before, new RegExp(`^${family} `, 'm'), family);
  assert.equal(value(before, 'sensu_go_events_processed{status="success",type="check"}'), '0');
  assert.equal(value(before, 'sensu_go_events_processed{status="error",type="unknown"}'), '0');
  const event = (status: number) => ({
    entity: { metadata: { name: 'm1' }, entity_class: 'proxy' },
    check: { metadata: { name: 'k1' }, status, interval: 60 },
  });
  for (const status of [0, 1]) assert.equal((await call(`${v2}${NS}/events/m1/k1`, 'PUT', auth, event(status))).status, 201);
  const metricsOnly = {
    entity: { metadata: { name: 'm1' }, entity_class: 'proxy' },
    metrics: { points: [{ name: 'p', value: 1, timestamp: 1700000000, tags: [] }] },
  };
  assert.equal((await call(`${v2}${NS}/events`, 'POST', auth, metricsOnly)).status, 201);
  const after = String((await getJson(`${v2}/metrics`)).body);
  assert.equal(value(after, 'sensu_go_events_processed{status="success",type="check"}'), '2');
  assert.equal(value(after, 'sensu_go_events_processed{status="success",type="metrics"}'), '1');
});
