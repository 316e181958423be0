// The validation Sensu Go makes on writes (its Validate methods), answered with the same status and a message naming
// the field: output metric format, flap thresholds, proxy requests, filter expressions, hook timeout, mutator type,
// pipeline references.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../../helpers/instance.js';
import { adminToken, call } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'validation-kinds', address: '127.0.0.1', subscriptions: [] } } };
const CHECK = { command: 'true', interval: 10 };
const ref = (name: string, type: string) => ({ name, type, api_version: 'core/v2' });
const workflow = (extra: Record<string, unknown>) => ({ workflows: [{ name: 'w', handler: ref('h', 'Handler'), ...extra }] });

// [path, body, a pattern of the message]: Sensu Go answers each with 400.
const REFUSED: [string, Record<string, unknown>, RegExp][] = [
  ['checks/c', { ...CHECK, output_metric_format: 'bogus' }, /^output_metric_format "bogus" is not valid: one of nagios_perfdata, graphite_plaintext/],
  [
    'checks/c',
    { ...CHECK, low_flap_threshold: 50, high_flap_threshold: 20 },
    /^invalid flap thresholds: low_flap_threshold \(50\) must be below high_flap_threshold \(20\)$/,
  ],
  [
    'checks/c',
    { ...CHECK, proxy_requests: { entity_attributes: ['entity.name ==='] } },
    /^proxy_requests\.entity_attributes\[0\] is not a valid JavaScript expression: /,
  ],
  ['checks/c', { ...CHECK, proxy_requests: { splay: true } }, /^proxy_requests\.splay_coverage must be greater than 0 if splay is enabled$/],
  ['checks/c', { ...CHECK, proxy_requests: { splay_coverage: 101 } }, /^proxy_requests\.splay_coverage must be between 0 and 100$/],
  ['filters/f', { action: 'allow' }, /^expressions: a filter must have one or more expressions$/],
  ['filters/f', { action: 'allow', expressions: [] }, /^expressions: a filter must have one or more expressions$/],
  ['filters/f', { action: 'allow', expressions: ['event.check ==='] }, /^expressions\[0\] is not a valid JavaScript expression: /],
  ['filters/f', { action: 'nope', expressions: ['true'] }, /^action "nope" is not valid: allow or deny$/],
  ['hooks/k', { command: 'true' }, /^timeout: a hook timeout must be greater than 0$/],
  ['hooks/k', { command: 'true', timeout: 0 }, /^timeout: a hook timeout must be greater than 0$/],
  ['mutators/m', { command: 'true', type: 'bogus' }, /^invalid mutator type "bogus": one of pipe, javascript$/],
  ['mutators/m', { type: 'pipe' }, /^mutator command or eval must be set$/],
  ['mutators/m', { type: 'javascript', command: 'x' }, /^command used with a javascript mutator: give the script as eval$/],
  [
    'pipelines/p',
    { workflows: [{ name: 'w', handler: ref('h', 'Nope') }] },
    /^workflows\[0\]\.handler: resource type not capable of handling events: core\/v2\.Nope$/,
  ],
  ['pipelines/p', { workflows: [{ name: 'w' }] }, /^workflows\[0\]\.handler must be set$/],
  ['pipelines/p', { workflows: [{ name: 'w', handler: { name: 'h' } }] }, /^workflows\[0\]\.handler\.type must be set$/],
  ['pipelines/p', { workflows: [{ handler: ref('h', 'Handler') }] }, /^workflows\[0\]\.name must be/],
  ['pipelines/p', workflow({ filters: [ref('f', 'Nope')] }), /^workflows\[0\]\.filters\[0\]: resource type not capable of filtering events: core\/v2\.Nope$/],
  ['pipelines/p', workflow({ mutator: ref('m', 'Nope') }), /^workflows\[0\]\.mutator: resource type not capable of mutating events: core\/v2\.Nope$/],
];

test('writes Sensu Go refuses are 400 with a message naming the field; nothing is stored; the valid forms go through', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  for (const [path, body, message] of REFUSED) {
    const reply = await call(`${ns}/${path}`, 'PUT', auth, body);
    assert.equal(reply.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
    assert.match(reply.body.message, message, `${path} ${JSON.stringify(body)}`);
    assert.equal((await call(`${ns}/${path}`, 'GET', auth)).status, 404, `${path}: nothing stored`);
  }
  for (const [path, body] of [
    ['checks/c', { ...CHECK, output_metric_format: 'influxdb_line', low_flap_threshold: 20, high_flap_threshold: 50 }],
    ['checks/p', { ...CHECK, proxy_requests: { entity_attributes: ["entity.entity_class == 'proxy'"], splay: true, splay_coverage: 90 } }],
    ['filters/f', { action: 'deny', expressions: ['event.check.status == 0', 'var x = 1; x > 0'] }],
    ['hooks/k', { command: 'true', timeout: 10 }],
    ['mutators/m', { type: 'javascript', eval: 'return JSON.stringify(event)' }],
    ['mutators/n', { type: 'pipe', command: 'cat' }],
    ['pipelines/p', workflow({ filters: [ref('f', 'EventFilter')], mutator: ref('m', 'Mutator') })],
  ] as const) {
    const reply = await call(`${ns}/${path}`, 'PUT', auth, body);
    assert.equal(reply.status, 201, `${path} ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
  }
});
