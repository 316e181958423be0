import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

test('output_metric_tags reach the v2 event as a list of {name, value}: the list unchanged, a hash converted', async (t) => {
  const list = [
    { name: 'env', value: 'prod' },
    { name: 'dc', value: 'eu-1' },
  ];
  const check = (tags: unknown) => ({
    command: "echo 'a.b 1 100'",
    standalone: true,
    interval: 1,
    output_metric_format: 'graphite_plaintext',
    output_metric_tags: tags,
  });
  const { v2 } = await instanceFor(t, {
    'conf.d/config.json': {
      client: { name: 'tagged', address: '127.0.0.1', subscriptions: [] },
      checks: { listed: check(list), hashed: check({ env: 'prod', port: 8080 }) },
    },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const event = (name: string) =>
    eventually(
      () => call(`${v2}/api/core/v2/namespaces/default/events/tagged/${name}`, 'GET', auth),
      (r) => r.status === 200,
      15_000,
    );
  const listed = await event('listed');
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.check.output_metric_tags, list);
  const hashed = await event('hashed');
  assert.deepEqual(hashed.body.check.output_metric_tags, [
    { name: 'env', value: 'prod' },
    { name: 'port', value: '8080' },
  ]);
});
