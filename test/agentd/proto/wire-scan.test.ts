// The scan of a protobuf frame before it is decoded: wire types, lengths, nesting and the JSON budget checked against
// the schema, each refusal named with where it was found; unknown fields stepped over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { COREV2_PROTO } from '../../../src/v2/index.js';
import { wireProblem } from '../../../src/agentd/proto/wire-scan.js';

const root = protobuf.parse(COREV2_PROTO, { keepCase: true }).root.resolveAll();
const Event = root.lookupType('sensu.core.v2.Event');
const CheckRequest = root.lookupType('sensu.core.v2.CheckRequest');
// A repeated number, which the agent's schema has none of, may come packed or one by one.
const Numbers = protobuf
  .parse('syntax = "proto3"; message Numbers { repeated int64 values = 1; repeated double ratios = 2; }', { keepCase: true })
  .root.resolveAll()
  .lookupType('Numbers');

const [VARINT, I64, LEN, GROUP_START, GROUP_END, I32] = [0, 1, 2, 3, 4, 5];
const tag = (field: number, wire: number) => field * 8 + wire;
// Single-byte tags and lengths only (fields up to 15): written as they are.
const bytes = (...values: number[]) => Uint8Array.from(values);
const problemOf = (data: Uint8Array, type = Event, maxDepth = 32) => wireProblem(data, type, maxDepth)?.message ?? null;

test('a well-formed message passes, empty included', () => {
  const event = Event.encode(
    Event.fromObject({
      timestamp: 1_700_000_000,
      entity: { entity_class: 'agent', subscriptions: ['linux'], metadata: { name: 'a', labels: { team: 'ops' } }, deregister: true },
      check: { command: 'c', history: [{ status: 1, executed: 2 }], hooks: [{ config: { command: 'h' }, duration: 1.5 }] },
      id: Buffer.alloc(16, 1),
    }),
  ).finish();
  assert.equal(wireProblem(event, Event, 32), null);
  assert.equal(wireProblem(new Uint8Array(0), Event, 32), null);
});

test('fields the schema does not name are stepped over, whatever their wire type, groups included', () => {
  const writer = protobuf.Writer.create();
  writer.uint32(tag(100, VARINT)).uint64(2 ** 50);
  writer.uint32(tag(101, I64)).fixed64(7);
  writer.uint32(tag(102, LEN)).bytes(Buffer.from('unknown'));
  writer.uint32(tag(103, I32)).fixed32(9);
  writer.uint32(tag(104, GROUP_START)).uint32(tag(1, VARINT)).uint32(5).uint32(tag(2, GROUP_START)).uint32(tag(2, GROUP_END)).uint32(tag(104, GROUP_END));
  writer.uint32(tag(1, VARINT)).uint32(42);
  assert.equal(problemOf(writer.finish()), null);
});

test('a known field in another wire type than its schema says is refused, naming the field, its type and both wire types', () => {
  assert.equal(problemOf(bytes(tag(1, LEN), 1, 0)), 'field 1 (timestamp) of Event at byte 0 has wire type length-delimited, expected varint');
  assert.equal(problemOf(bytes(tag(3, VARINT), 1)), 'field 3 (check) of Event at byte 0 has wire type varint, expected length-delimited');
  // Where it is found: after a first good field.
  assert.equal(problemOf(bytes(tag(7, VARINT), 1, tag(6, I32), 0, 0, 0, 0)), 'field 6 (id) of Event at byte 2 has wire type 32-bit, expected length-delimited');
});

test('a truncated varint, an overlong varint and field number 0 are refused', () => {
  assert.equal(problemOf(bytes(tag(1, VARINT), 0x80)), 'truncated varint at byte 2');
  assert.equal(problemOf(bytes(tag(1, VARINT), ...Array(10).fill(0xff), 0x01)), 'varint longer than 10 bytes at byte 11');
  assert.equal(problemOf(bytes(0x00, 0x01)), 'field number 0 at byte 0');
});

test('a length past the end of its message is refused, though the frame has bytes beyond it', () => {
  assert.equal(problemOf(bytes(tag(6, LEN), 5, 1, 2)), 'truncated field at byte 2: 5 bytes announced, 2 left');
  // check (field 3) is 2 bytes long; inside it, output (field 26) announces 4 bytes, which run past the check.
  const inner = protobuf.Writer.create().uint32(tag(26, LEN)).uint32(4).finish();
  const frame = bytes(tag(3, LEN), inner.length + 1, ...inner, 0x61, 0x62, 0x63, 0x64);
  assert.match(problemOf(frame) ?? '', /^truncated field at byte 5: 4 bytes announced, 1 left$/);
});

test('invalid wire types, unended groups and groups ended by another number are refused', () => {
  // Field 14: one Event does not have.
  assert.equal(problemOf(bytes(tag(14, 6))), 'field 14 at byte 1 has wire type invalid (6)');
  assert.equal(problemOf(bytes(tag(14, 7))), 'field 14 at byte 1 has wire type invalid (7)');
  assert.equal(problemOf(bytes(tag(15, GROUP_START), tag(1, VARINT), 1)), 'group 15 not ended');
  assert.equal(problemOf(bytes(tag(15, GROUP_START), tag(14, GROUP_END))), 'group 15 ended as 14');
});

test('messages and unknown groups nested deeper than the limit are refused; at the limit they pass', () => {
  // Event > check > hooks > config (flattened) > metadata: five levels.
  const deep = Event.encode(Event.fromObject({ check: { hooks: [{ config: { metadata: { name: 'x' } } }] } })).finish();
  assert.equal(problemOf(deep, Event, 5), null);
  assert.equal(problemOf(deep, Event, 4), 'protobuf nested deeper than 4 levels');
  const groups = (depth: number) => bytes(...Array(depth).fill(tag(15, GROUP_START)), ...Array(depth).fill(tag(15, GROUP_END)));
  assert.equal(problemOf(groups(3), Event, 4), null);
  assert.equal(problemOf(groups(4), Event, 4), 'protobuf nested deeper than 4 levels');
});

test('a map entry is read as key and value: a value in another wire type is refused, a message value nests', () => {
  const labels = Event.encode(Event.fromObject({ entity: { metadata: { labels: { a: 'b' } } } })).finish();
  assert.equal(problemOf(labels), null);
  // Event.metadata (5) > labels (3) > an entry whose value (2) is a varint.
  const badEntry = bytes(tag(5, LEN), 4, tag(3, LEN), 2, tag(2, VARINT), 1);
  assert.equal(problemOf(badEntry), 'map labels entry field 2 at byte 4 has wire type varint, expected length-delimited');
  // CheckRequest > hook_assets entry > AssetList > assets > metadata: five levels.
  const hookAssets = CheckRequest.encode(CheckRequest.fromObject({ hook_assets: { h: { assets: [{ metadata: { name: 'a' } }] } } })).finish();
  assert.equal(problemOf(hookAssets, CheckRequest, 5), null);
  assert.equal(problemOf(hookAssets, CheckRequest, 4), 'protobuf nested deeper than 4 levels');
});

test('repeated numbers pass packed or one by one; a packed run cut short is refused', () => {
  const packed = Numbers.encode(Numbers.fromObject({ values: [1, 300, 2 ** 40], ratios: [0.5, 2] })).finish();
  assert.equal(problemOf(packed, Numbers), null);
  assert.equal(problemOf(bytes(tag(1, VARINT), 1, tag(1, VARINT), 2), Numbers), null);
  assert.equal(problemOf(bytes(tag(2, LEN), 3, 0, 0, 0), Numbers), 'truncated field at byte 2: 8 bytes announced, 3 left');
  assert.equal(problemOf(bytes(tag(1, LEN), 1, 0x80), Numbers), 'truncated varint at byte 3');
});

test('with a budget, a frame decoding to more JSON than it allows is too large, where it went over named', () => {
  const frame = Event.encode(Event.fromObject({ check: { output: 'x'.repeat(500) } })).finish();
  const budget = (maxJsonBytes: number) => ({ maxJsonBytes, emptyJsonBytes: () => 2 });
  assert.equal(wireProblem(frame, Event, 32, budget(1_000)), null);
  const refused = wireProblem(frame, Event, 32, budget(400));
  assert.equal(refused?.tooLarge, true);
  assert.match(refused?.message ?? '', /^it decodes to more than 400 bytes of JSON, .* over it in Event\.check\.output at byte \d+$/);
  // A malformed frame is malformed, not too large, whatever the budget.
  assert.deepEqual(wireProblem(bytes(tag(1, LEN), 1, 0), Event, 32, budget(100)), {
    message: 'field 1 (timestamp) of Event at byte 0 has wire type length-delimited, expected varint',
    tooLarge: false,
  });
});
