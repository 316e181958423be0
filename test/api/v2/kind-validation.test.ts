// The validation Sensu Go makes on writes (its Validate methods, the rule book's src/rules/), answered with the same
// status and a message naming the field: output metric format, flap thresholds, proxy requests, filter expressions,
// hook timeout, mutator type, pipeline references, handler types and sockets; and the name rule, read the same everywhere.
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
  ['pipelines/p', { workflows: [{ handler: ref('h', 'Handler') }] }, /^workflows\[0\]\.name must not be empty$/],
  [
    'pipelines/p',
    { workflows: [{ name: 'a b', handler: ref('h', 'Handler') }] },
    /^workflows\[0\]\.name must be 1 to 255 letters, digits, _ \. - : \(not \. or \.\.\)$/,
  ],
  ['pipelines/p', workflow({ filters: [ref('f', 'Nope')] }), /^workflows\[0\]\.filters\[0\]: resource type not capable of filtering events: core\/v2\.Nope$/],
  ['pipelines/p', workflow({ mutator: ref('m', 'Nope') }), /^workflows\[0\]\.mutator: resource type not capable of mutating events: core\/v2\.Nope$/],
  // Refused by Sensu Go 6.12 and accepted before the rule book (the API's own copy of these rules had drifted).
  ['handlers/h', { type: 'grpc' }, /^handler type must be one of pipe, tcp, udp, set$/],
  ['handlers/h', { type: 'pipe', command: '  ' }, /^missing command$/],
  ['handlers/h', { type: 'tcp', socket: { host: 'a', port: 0 } }, /^socket port undefined$/],
  ['checks/c', { ...CHECK, proxy_entity_name: 'a b' }, /^proxy entity name must be 1 to 255 letters, digits, _ \. - : \(not \. or \.\.\)$/],
  ['entities/e', { entity_class: 'a b' }, /^entity_class must be 1 to 255 letters, digits, _ \. - : \(not \. or \.\.\)$/],
  // Refused before too, in words that differed from compile's and the event door's.
  ['handlers/h', { type: 'udp', socket: { port: 1 } }, /^socket host undefined$/],
  ['handlers/h', { type: 'tcp' }, /^tcp and udp handlers need a valid socket$/],
  ['checks/c', { ...CHECK, subscriptions: [''] }, /^subscriptions cannot be empty strings$/],
  ['entities/e', {}, /^entity_class must not be empty$/],
  ['silenced/x', {}, /^must provide check or subscription$/],
];

// A name broken anywhere reads the same: one rule, one message.
const NAME_RULE = /^(name|username) must be 1 to 255 letters, digits, _ \. - : \(not \. or \.\.\)$/;

test('the v2 rules at the API and the event door, on one daemon', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;

  await t.test('writes Sensu Go refuses are 400 with a message naming the field; nothing is stored; the valid forms go through', async () => {
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
      ['handlers/t', { type: 'tcp', socket: { host: '127.0.0.1', port: 2003 } }],
      ['checks/x', { ...CHECK, proxy_entity_name: 'db:primary' }],
      ['entities/e', { entity_class: 'switch' }],
    ] as const) {
      const reply = await call(`${ns}/${path}`, 'PUT', auth, body);
      // Sensu Go answers an entity write with 200 and the entity, every other write with 201.
      assert.equal(reply.status, path.startsWith('entities/') ? 200 : 201, `${path} ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
    }
  });

  await t.test('a bad name reads the same at every v2 route: namespaces, users, RBAC, resources, events', async () => {
    for (const [url, body] of [
      [`${v2}/api/core/v2/namespaces/a%20b`, {}],
      [`${v2}/api/core/v2/users/a%20b`, { password: 'Passw0rd!long-enough', groups: [] }],
      [`${ns}/roles/a%20b`, { rules: [] }],
      [`${ns}/checks/a%20b`, CHECK],
    ] as const) {
      const reply = await call(url, 'PUT', auth, body);
      assert.equal(reply.status, 400, url);
      assert.match(reply.body.message, NAME_RULE, url);
    }
    const event = (entity: string, check: Record<string, unknown>) => ({
      entity: { entity_class: 'proxy', metadata: { name: entity } },
      check: { interval: 10, ...check },
    });
    for (const [body, message] of [
      [event('a b', { metadata: { name: 'c' } }), 'entity is invalid: entity name must be 1 to 255 letters, digits, _ . - : (not . or ..)'],
      [event('e', { metadata: { name: 'c d' } }), 'check is invalid: check name must be 1 to 255 letters, digits, _ . - : (not . or ..)'],
      [event('e', { metadata: { name: 'c' }, ttl: 3, interval: 1 }), 'check is invalid: minimum ttl is 5 seconds'],
      [
        event('e', { metadata: { name: 'c' }, low_flap_threshold: 50, high_flap_threshold: 20 }),
        'check is invalid: invalid flap thresholds: low_flap_threshold (50) must be below high_flap_threshold (20)',
      ],
      [
        event('e', { metadata: { name: 'c' }, proxy_entity_name: 'a b' }),
        'check is invalid: proxy entity name must be 1 to 255 letters, digits, _ . - : (not . or ..)',
      ],
    ] as const) {
      const reply = await call(`${ns}/events`, 'POST', auth, body);
      assert.deepEqual([reply.status, reply.body.message], [400, message], JSON.stringify(body));
    }
  });
});
