// The agent door's protobuf codec: a decoded message comes out as the JSON Sensu Go writes for it (omitted, null and
// empty fields, 64-bit numbers, UUIDs, hook lists, flattened hooks), refusals are named, and what it encodes decodes back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { COREV2_PROTO } from '../../../src/v2/index.js';
import { decodeProtobuf, encodeProtobuf } from '../../../src/agentd/proto/codec.js';

const root = protobuf.parse(COREV2_PROTO, { keepCase: true }).root;
const Event = root.lookupType('sensu.core.v2.Event');
const CheckRequest = root.lookupType('sensu.core.v2.CheckRequest');
const EntityConfig = root.lookupType('sensu.core.v2.EntityConfig');
const eventBytes = (event: object) => Event.encode(Event.fromObject(event)).finish();
const LIMITS = { maxDepth: 32 };

type Plain = Record<string, any>;
const decodedEvent = (event: object): Plain => {
  const decoded = decodeProtobuf('Event', eventBytes(event), LIMITS);
  assert.equal(typeof decoded, 'object', String(decoded));
  return decoded as Plain;
};

test("an event's fields come out as Go's JSON writes them: omitted when empty and omitempty, null lists, structs by value", () => {
  const event = decodedEvent({ check: { command: 'check-disk' } });
  // Left out: timestamp 0, entity and metrics unset (omitempty).
  assert.deepEqual(Object.keys(event).sort(), ['check', 'id', 'metadata', 'pipelines', 'sequence']);
  assert.deepEqual([event.metadata, event.sequence, event.pipelines, event.id], [{}, 0, null, null]);
  const check = event.check;
  assert.equal(check.command, 'check-disk');
  assert.deepEqual([check.handlers, check.subscriptions, check.pipelines], [[], [], []], 'never null');
  assert.deepEqual([check.runtime_assets, check.env_vars, check.secrets, check.subdue], [null, null, null, null]);
  assert.deepEqual([check.output, check.status, check.publish, check.metadata], ['', 0, false, {}]);
  for (const omitted of ['cron', 'state', 'silenced', 'hooks', 'duration', 'proxy_requests', 'processed_by', 'max_output_size'])
    assert.equal(omitted in check, false, omitted);
});

test('fields Go never writes in JSON are dropped though they were sent', () => {
  const event = decodedEvent({
    entity: { entity_class: 'agent', extended_attributes: Buffer.from('{"x":1}') },
    check: { extended_attributes: Buffer.from('{"y":2}'), history: [{ status: 1, executed: 2, flapping: true }] },
  });
  assert.equal('extended_attributes' in event.entity, false);
  assert.equal('extended_attributes' in event.check, false);
  assert.deepEqual(event.check.history, [{ status: 1, executed: 2 }]);
  // A struct held by value is written even when not sent.
  assert.deepEqual(event.entity.deregistration, {});
  assert.equal(event.entity.system.network.interfaces, null);
});

test('64-bit numbers come out whole, beyond 32 bits and negative', () => {
  const event = decodedEvent({ timestamp: 2 ** 40 + 3, check: { executed: -5, issued: 1_700_000_000, occurrences: 2 ** 33 } });
  assert.equal(event.timestamp, 2 ** 40 + 3);
  assert.deepEqual([event.check.executed, event.check.issued, event.check.occurrences], [-5, 1_700_000_000, 2 ** 33]);
});

test("an event's id of 16 bytes is a UUID's text; of another length, base64; none, null", () => {
  assert.equal(decodedEvent({ id: Buffer.from('00112233445566778899aabbccddeeff', 'hex') }).id, '00112233-4455-6677-8899-aabbccddeeff');
  assert.equal(decodedEvent({ id: Buffer.from('abc') }).id, 'YWJj');
  assert.equal(decodedEvent({}).id, null);
});

test('hook lists come out keyed by their type; a hook carries its configuration flattened beside its result', () => {
  const check = decodedEvent({
    check: {
      check_hooks: [
        { type: 'critical', hooks: ['collect-logs', 'restart'] },
        { type: 'ok', hooks: [] },
      ],
      hooks: [{ config: { command: 'collect-logs', metadata: { name: 'collect-logs' }, timeout: 10 }, status: 2, executed: 5, output: 'done' }],
    },
  }).check;
  assert.deepEqual(check.check_hooks, [{ critical: ['collect-logs', 'restart'] }, { ok: null }]);
  assert.deepEqual(check.hooks, [
    {
      metadata: { name: 'collect-logs' },
      command: 'collect-logs',
      timeout: 10,
      stdin: false,
      runtime_assets: null,
      executed: 5,
      issued: 0,
      output: 'done',
      status: 2,
    },
  ]);
});

test('a payload that is not the message is refused by name, the reason given', () => {
  assert.equal(
    decodeProtobuf('Event', Buffer.from([0x0a, 0x05, 0x01]), LIMITS),
    'the payload is not a protobuf Event: field 1 (timestamp) of Event at byte 0 has wire type length-delimited, expected varint',
  );
  assert.match(String(decodeProtobuf('Event', Buffer.from('{"check":{}}'), LIMITS)), /^the payload is not a protobuf Event: truncated field/);
  assert.match(String(decodeProtobuf('CheckRequest', Buffer.from([0x08]), LIMITS)), /^the payload is not a protobuf CheckRequest: /);
});

test('a message nested deeper than allowed is refused; one decoding to more JSON than the budget is too large', () => {
  const bytes = eventBytes({ check: { hooks: [{ config: { metadata: { name: 'deep' } } }] } });
  assert.equal(typeof decodeProtobuf('Event', bytes, { maxDepth: 5 }), 'object');
  assert.equal(decodeProtobuf('Event', bytes, { maxDepth: 4 }), 'the payload is not a protobuf Event: protobuf nested deeper than 4 levels');
  const big = eventBytes({ check: { output: 'x'.repeat(2_000) } });
  assert.equal(typeof decodeProtobuf('Event', big, { maxDepth: 32, maxJsonBytes: 100_000 }), 'object');
  assert.match(
    String(decodeProtobuf('Event', big, { maxDepth: 32, maxJsonBytes: 1_000 })),
    /^the protobuf Event is too large: it decodes to more than 1000 bytes of JSON/,
  );
});

test('a check request encoded from its JSON reaches the agent with every field in place', () => {
  const json = {
    config: {
      command: 'check-disk',
      interval: 60,
      subscriptions: ['linux'],
      handlers: ['slack'],
      check_hooks: [{ critical: ['collect-logs'] }],
      ttl: 2 ** 34,
      metadata: { name: 'disk', namespace: 'default', labels: { team: 'ops' } },
      subdue: null,
    },
    assets: [{ url: 'https://example.test/a.tar.gz', sha512: 'ab', metadata: { name: 'a' }, headers: { Authorization: 'x' } }],
    hooks: [{ metadata: { name: 'collect-logs' }, command: 'journalctl', timeout: 5, stdin: true }],
    issued: 1_700_000_000,
    hook_assets: { 'collect-logs': { assets: [{ url: 'https://example.test/h.tar.gz' }] } },
    secrets: ['TOKEN'],
  };
  const wire = CheckRequest.toObject(CheckRequest.decode(encodeProtobuf('CheckRequest', json)), { longs: Number });
  assert.equal(wire.config.command, 'check-disk');
  assert.deepEqual(wire.config.check_hooks, [{ type: 'critical', hooks: ['collect-logs'] }]);
  assert.equal(wire.config.ttl, 2 ** 34);
  assert.deepEqual(wire.config.metadata, { name: 'disk', namespace: 'default', labels: { team: 'ops' } });
  assert.equal(wire.config.subdue, undefined, 'null is not sent');
  assert.deepEqual(wire.assets[0].headers, { Authorization: 'x' });
  assert.equal(wire.hooks[0].stdin, true);
  assert.equal(wire.hook_assets['collect-logs'].assets[0].url, 'https://example.test/h.tar.gz');
  assert.deepEqual(wire.secrets, ['TOKEN']);

  const back = decodeProtobuf('CheckRequest', encodeProtobuf('CheckRequest', json), LIMITS) as Plain;
  assert.deepEqual(back.config.check_hooks, json.config.check_hooks);
  assert.equal(back.issued, 1_700_000_000);
});

test("an event's UUID and an entity config's fields encode and decode back to the same JSON", () => {
  const event = {
    id: '00112233-4455-6677-8899-aabbccddeeff',
    timestamp: 2 ** 40,
    check: { command: 'c', metadata: { name: 'disk' }, hooks: [{ command: 'h', status: 1 }] },
  };
  const back = decodeProtobuf('Event', encodeProtobuf('Event', event), LIMITS) as Plain;
  assert.equal(back.id, event.id);
  assert.equal(back.timestamp, 2 ** 40);
  assert.deepEqual([back.check.hooks[0].command, back.check.hooks[0].status], ['h', 1], 'a flattened hook goes back into its config');

  const config = {
    metadata: { name: 'web-01', namespace: 'default' },
    entity_class: 'agent',
    subscriptions: ['linux'],
    deregister: true,
    deregistration: { handler: 'x' },
    redact: ['pw'],
  };
  const wire = EntityConfig.toObject(EntityConfig.decode(encodeProtobuf('EntityConfig', config)));
  assert.deepEqual(wire, config);
  assert.deepEqual(decodeProtobuf('EntityConfig', encodeProtobuf('EntityConfig', config), LIMITS), config);
});
