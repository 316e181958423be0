import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMetrics } from '../../src/metrics/index.js';

test('nagios_perfdata: label=value[UOM];warn;crit after the first pipe', () => {
  const parsed = parseMetrics('nagios_perfdata', "PING OK - Packet loss = 0%, RTA = 0.80 ms | percent_packet_loss=0%;10;20 'rta ms'=0.80ms;;;0", 1000);
  assert.deepEqual(parsed.points, [
    { name: 'percent_packet_loss', value: 0, timestamp: 1000, tags: [] },
    { name: 'rta ms', value: 0.8, timestamp: 1000, tags: [] },
  ]);
});

test('influxdb_line: one point per field, tags kept, nanosecond timestamps', () => {
  const parsed = parseMetrics('influxdb_line', 'cpu,host=a,region=eu user=1.5,system=2 1700000000000000000\n', 0);
  assert.deepEqual(parsed.points, [
    {
      name: 'cpu.user',
      value: 1.5,
      timestamp: 1700000000,
      tags: [
        { name: 'host', value: 'a' },
        { name: 'region', value: 'eu' },
      ],
    },
    {
      name: 'cpu.system',
      value: 2,
      timestamp: 1700000000,
      tags: [
        { name: 'host', value: 'a' },
        { name: 'region', value: 'eu' },
      ],
    },
  ]);
});

test('opentsdb_line and prometheus_text', () => {
  assert.deepEqual(parseMetrics('opentsdb_line', 'sys.cpu 1700000000 42 host=a', 0).points, [
    { name: 'sys.cpu', value: 42, timestamp: 1700000000, tags: [{ name: 'host', value: 'a' }] },
  ]);
  const prom = parseMetrics('prometheus_text', '# HELP x y\n# TYPE up gauge\nup{job="api",path="/a b"} 1\nhttp_total 5 1700000000000\nbad line here\n', 99);
  assert.deepEqual(prom.points, [
    {
      name: 'up',
      value: 1,
      timestamp: 99,
      tags: [
        { name: 'job', value: 'api' },
        { name: 'path', value: '/a b' },
      ],
    },
    { name: 'http_total', value: 5, timestamp: 1700000000, tags: [] },
  ]);
  assert.deepEqual(
    prom.errors.map((e) => e.line),
    [5],
  );
});

test('a bad line is skipped, the rest kept', () => {
  const parsed = parseMetrics('graphite_plaintext', 'a 1 10\nb notanumber 10\nc 3 30', 0);
  assert.deepEqual(
    parsed.points.map((p) => p.name),
    ['a', 'c'],
  );
  assert.deepEqual(
    parsed.errors.map((e) => e.line),
    [2],
  );
});

test('output_metric_tags: the list form and the hash form both tag every point, in order, values as strings', () => {
  const list = parseMetrics('graphite_plaintext', 'a.b 1 100\n', 0, [
    { name: 'env', value: 'prod' },
    { name: 'port', value: 8080 },
  ]);
  assert.deepEqual(list.points, [
    {
      name: 'a.b',
      value: 1,
      timestamp: 100,
      tags: [
        { name: 'env', value: 'prod' },
        { name: 'port', value: '8080' },
      ],
    },
  ]);
  const hash = parseMetrics('influxdb_line', 'cpu,host=a user=1 1700000000000000000\n', 0, { env: 'prod' });
  assert.deepEqual(hash.points[0]!.tags, [
    { name: 'host', value: 'a' },
    { name: 'env', value: 'prod' },
  ]);
});
