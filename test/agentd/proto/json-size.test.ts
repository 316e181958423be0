// The protobuf decoding budget counts the least JSON a frame decodes to: an event whose JSON fits is never refused
// (every repeated field, map and awkward string of a full event), and what JSON writes longer than the wire
// (escapes, bytes that are not UTF-8) is counted at its written width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf } from '../../../src/agentd/proto/codec.js';
import { stringJsonBytes } from '../../../src/agentd/proto/json-size.js';

const AWKWARD = 'quote " backslash \\ newline \n control \u0001 é 日本 🙂';
const FULL = {
  timestamp: 1_700_000_000,
  id: Buffer.alloc(16, 7).toString('base64'),
  entity: {
    entity_class: 'agent',
    system: {
      hostname: 'h',
      os: 'linux',
      network: { interfaces: [{ name: 'eth0', mac: 'aa:bb', addresses: ['10.0.0.1/8', AWKWARD] }, {}] },
      processes: [{ name: 'p' }],
    },
    subscriptions: ['linux', 'entity:h', ''],
    deregister: true,
    metadata: { name: 'h', namespace: 'default', labels: { region: AWKWARD, password: 'x', '': '' }, annotations: { a: 'b' } },
    redact: ['password'],
    keepalive_handlers: ['k'],
  },
  check: {
    metadata: { name: 'disk', namespace: 'default', labels: { l: 'v' } },
    command: 'check-disk',
    output: AWKWARD,
    status: 2,
    handlers: ['h1', 'h2'],
    subscriptions: ['linux'],
    interval: 60,
    stdin: true,
    publish: true,
    round_robin: true,
    is_silenced: true,
    hooks: [{ metadata: { name: 'h1' }, command: 'x', stdin: true, output: AWKWARD, status: 1 }, {}, {}],
    check_hooks: [{ critical: ['a', 'b'] }, { '1': [] }],
    history: [{ status: 0, executed: 17 }, {}, { status: 2 }],
    env_vars: ['A=1'],
    secrets: [{ name: 's', secret: 'x' }, {}],
    output_metric_tags: [{ name: 't', value: 'v' }, {}],
    output_metric_thresholds: [{ name: 'm', tags: [{}], thresholds: [{ min: '1', status: 1 }, {}] }, {}],
    pipelines: [{ name: 'p', type: 'Pipeline', api_version: 'core/v2' }, {}],
    subdues: [{ begin: 'b', end: 'e', repeat: ['daily'] }, {}],
    silenced: ['s:*'],
  },
  metrics: { handlers: ['x'], points: [{ name: 'p', value: 1.5, timestamp: 1, tags: [{ name: 't', value: 'v' }, {}] }, {}, {}] },
  pipelines: [{ name: 'p', type: 'Pipeline', api_version: 'core/v2' }, {}],
};

test('a full event is accepted by any budget its JSON fits in: the count is never more than the JSON written', () => {
  const payload = encodeProtobuf('Event', FULL);
  const decoded = decodeProtobuf('Event', payload, { maxDepth: 100 });
  assert.equal(typeof decoded, 'object');
  const written = Buffer.byteLength(JSON.stringify(decoded));
  assert.equal(typeof decodeProtobuf('Event', payload, { maxDepth: 100, maxJsonBytes: written }), 'object', `accepted with a budget of its ${written} bytes`);
  // Every empty element of a full list: each counted, so a budget a few bytes short of the whole list's refuses it.
  const many = encodeProtobuf('Event', { check: { metadata: { name: 'c' }, hooks: Array.from({ length: 1000 }, () => ({})) } });
  const manyJson = Buffer.byteLength(JSON.stringify(decodeProtobuf('Event', many, { maxDepth: 100 })));
  assert.equal(typeof decodeProtobuf('Event', many, { maxDepth: 100, maxJsonBytes: manyJson }), 'object');
  assert.match(
    String(decodeProtobuf('Event', many, { maxDepth: 100, maxJsonBytes: Math.floor(manyJson * 0.9) })),
    /over it in Event\.check\.hooks at byte \d+$/,
  );
});

test('the count is close to the JSON: lists of numbers and of fields left out when empty are refused a third past the budget', () => {
  const lists = {
    'Event.metrics.points': {
      metrics: {
        points: Array.from({ length: 500 }, () => ({ name: 'x', value: 0.30000000000000004, timestamp: 1_700_000_000_000, tags: [{ name: 'x', value: 'y' }] })),
      },
    },
    'Event.metrics.points.tags': { metrics: { points: [{ tags: Array.from({ length: 500 }, () => ({ name: 'x', value: 'y' })) }] } },
    'Event.check.history': { check: { history: Array.from({ length: 500 }, () => ({ status: 4_000_000_000, executed: 1_700_000_000_000 })) } },
    'Event.check.hooks': {
      check: { hooks: Array.from({ length: 500 }, () => ({ duration: 0.1, executed: 1_700_000_000_000, status: -1, timeout: 4_000_000_000 })) },
    },
    // Numbers as wide as JSON writes them: 24-character doubles and negative int64s past 2^53 (sent as 10-byte varints).
    'Event.metrics.points (wide numbers)': {
      metrics: {
        points: Array.from({ length: 500 }, () => ({
          name: 'x',
          value: -1.2345678901234568e-300,
          timestamp: -9_007_199_254_740_993n,
          tags: [{ name: 'x', value: 'y' }],
        })),
      },
    },
  };
  for (const [path, event] of Object.entries(lists)) {
    const payload = encodeProtobuf('Event', event);
    const written = Buffer.byteLength(JSON.stringify(decodeProtobuf('Event', payload, { maxDepth: 100 })));
    assert.equal(typeof decodeProtobuf('Event', payload, { maxDepth: 100, maxJsonBytes: written }), 'object', `${path}: accepted within its ${written} bytes`);
    const refused = decodeProtobuf('Event', payload, { maxDepth: 100, maxJsonBytes: Math.floor(written / 1.35) });
    const where = path.split(' ')[0]!;
    assert.match(String(refused), new RegExp(`over it in ${where.replace(/\./g, '\\.')}(\\.|\\s)`), `${path}: refused at ${Math.floor(written / 1.35)}`);
  }
});

test('a string is counted at its JSON width: quotes, escapes, and U+FFFD for a byte no UTF-8 character has', () => {
  const width = (bytes: Buffer) => stringJsonBytes(bytes, 0, bytes.length);
  const written = (bytes: Buffer) => Buffer.byteLength(JSON.stringify(bytes.toString('utf8')));
  for (const sample of [
    Buffer.from(AWKWARD),
    Buffer.alloc(1000, 0x01),
    Buffer.alloc(1000, 0x0a),
    Buffer.alloc(1000, 0xff),
    Buffer.alloc(1000, 0x80),
    Buffer.from('日本語'.repeat(100)),
  ])
    assert.equal(width(sample), written(sample), `${sample.subarray(0, 8).toString('hex')}…`);
  // A sequence cut short is one U+FFFD for its bytes: counted no wider than it is written.
  const cut = Buffer.from([0xe6, 0x97, 0x41, 0xf0, 0x9f, 0x98]);
  assert.ok(width(cut) <= written(cut));
});
