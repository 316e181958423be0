// output_metric_tags in either form, as the v2 list of {name, value}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricTagList } from '../../src/metrics/tags.js';

test('the v2 list keeps its order; values become strings; malformed entries are left out', () => {
  assert.deepEqual(
    metricTagList([
      { name: 'region', value: 'eu' },
      { name: 'port', value: 8080 },
      { name: 'tls', value: false },
      { name: 'nested', value: { a: 1 } },
      { value: 'no name' },
      null,
      'text',
    ]),
    [
      { name: 'region', value: 'eu' },
      { name: 'port', value: '8080' },
      { name: 'tls', value: 'false' },
    ],
  );
});

test('the legacy hash of name → value, in key order; anything else gives no tags', () => {
  assert.deepEqual(metricTagList({ b: 1, a: 'x', skip: null, list: [1] }), [
    { name: 'b', value: '1' },
    { name: 'a', value: 'x' },
  ]);
  for (const other of [undefined, null, 'region=eu', 7, true]) assert.deepEqual(metricTagList(other), [], String(other));
});
