import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLER_TYPES, METRIC_FORMATS, MUTATOR_TYPES, FILTER_ACTIONS, isOneOf } from '../../src/rules/enumerations.js';
import { parseMetrics } from '../../src/metrics/index.js';

test("Sensu Go 6.12's enumerations, in its order", () => {
  assert.deepEqual(METRIC_FORMATS, ['nagios_perfdata', 'graphite_plaintext', 'opentsdb_line', 'influxdb_line', 'prometheus_text']);
  assert.deepEqual(HANDLER_TYPES, ['pipe', 'tcp', 'udp', 'set']);
  assert.deepEqual(MUTATOR_TYPES, ['pipe', 'javascript']);
  assert.deepEqual(FILTER_ACTIONS, ['allow', 'deny']);
});

test('isOneOf takes a value of any type', () => {
  assert.equal(isOneOf(HANDLER_TYPES, 'set'), true);
  assert.equal(isOneOf(HANDLER_TYPES, 'grpc'), false);
  assert.equal(isOneOf(HANDLER_TYPES, undefined), false);
  assert.equal(isOneOf(HANDLER_TYPES, 1), false);
});

test('every metric format the rules accept is one the metric extraction parses', () => {
  const samples: Record<string, string> = {
    nagios_perfdata: 'OK | load=1',
    graphite_plaintext: 'a.b 1 1700000000',
    opentsdb_line: 'a.b 1700000000 1 host=x',
    influxdb_line: 'a,host=x value=1 1700000000000000000',
    prometheus_text: 'a_b 1',
  };
  for (const format of METRIC_FORMATS) {
    const parsed = parseMetrics(format, samples[format]!, 1700000000);
    assert.deepEqual([parsed.errors, parsed.points.length > 0], [[], true], format);
  }
});
