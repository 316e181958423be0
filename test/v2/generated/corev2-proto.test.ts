// The generated protobuf schema of the agent door: known field numbers and options, and the same fields, in the same
// order and of the same types, as the generated JSON field table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { COREV2_PROTO } from '../../../src/v2/generated/corev2-proto.js';
import { SENSU_GO_FIELDS } from '../../../src/v2/generated/fields.js';
import { HOOK_LISTS, SCALARS, type Scalar, type WireType } from '../../../src/v2/field-spec.js';

const root = protobuf.parse(COREV2_PROTO, { keepCase: true }).root.resolveAll();
const type = (name: string) => root.lookupType(`sensu.core.v2.${name}`);
const numbers = (name: string) => type(name).fieldsArray.map((f) => [f.name, f.id]);
const option = (message: string, field: string, name: string) => type(message).fields[field]!.options?.[`(${name})`];

test('the schema parses as one package holding the three messages the agent door exchanges', () => {
  assert.equal(root.lookup('sensu.core.v2')?.name, 'v2');
  for (const name of ['Event', 'EntityConfig', 'CheckRequest']) assert.equal(type(name).name, name);
});

test("an event's and a check history's field numbers are Sensu Go's", () => {
  assert.deepEqual(numbers('Event'), [
    ['timestamp', 1],
    ['entity', 2],
    ['check', 3],
    ['metrics', 4],
    ['metadata', 5],
    ['id', 6],
    ['sequence', 7],
    ['pipelines', 8],
  ]);
  assert.deepEqual(numbers('CheckHistory'), [
    ['status', 1],
    ['executed', 2],
    ['flapping', 3],
  ]);
  assert.equal(type('CheckConfig').fields.check_hooks!.id, 14);
  assert.equal(type('CheckConfig').fields.check_hooks!.repeated, true);
  assert.equal(type('CheckConfig').fields.check_hooks!.type, 'HookList');
});

test('how Go writes a field is an option the codec reads', () => {
  assert.equal(type('Event').fields.id!.type, 'bytes');
  assert.equal(option('Event', 'id', 'uuid'), true);
  assert.equal(option('Event', 'metadata', 'value'), true);
  assert.equal(option('Event', 'timestamp', 'omitempty'), true);
  assert.equal(option('Entity', 'extended_attributes', 'skip'), true);
  assert.equal(option('CheckConfig', 'handlers', 'never_null'), true);
  assert.equal(option('Hook', 'config', 'flatten'), true);
  assert.equal(option('Event', 'sequence', 'omitempty'), undefined);
});

// The JSON field type a protobuf field is written as: bytes are text, HookList is check hooks, a map of strings is one type.
function wireTypeOf(field: protobuf.Field): WireType {
  const scalar = (name: string) => Object.hasOwn(SCALARS, name);
  if (field instanceof protobuf.MapField)
    return field.type === 'string' ? 'map<string,string>' : { map: scalar(field.type) ? (field.type as Scalar) : { message: field.type } };
  if (field.repeated) {
    if (field.type === 'HookList') return HOOK_LISTS;
    return { list: scalar(field.type) ? (field.type as Scalar) : { message: field.type } };
  }
  if (field.type === 'bytes') return 'string';
  return scalar(field.type) ? (field.type as Scalar) : { message: field.type };
}

test("every message has the JSON field table's fields, in its order and of its types, less those Go skips", () => {
  const messages = (root.lookup('sensu.core.v2') as protobuf.Namespace).nestedArray.filter((n): n is protobuf.Type => n instanceof protobuf.Type);
  assert.ok(messages.length >= 30, `${messages.length} messages`);
  for (const message of messages) {
    const table = SENSU_GO_FIELDS[message.name];
    assert.ok(table, `${message.name} is in the field table`);
    const written = message.fieldsArray
      .filter((f) => f.options?.['(skip)'] !== true)
      .flatMap((f) => (f.options?.['(flatten)'] === true ? SENSU_GO_FIELDS[f.type]!.map((inner) => [inner.name, inner.type]) : [[f.name, wireTypeOf(f)]]));
    // A pointer in a list is Go's, not the wire's.
    const expected = table.map(({ name, type }) => {
      if (typeof type === 'object' && 'list' in type && typeof type.list === 'object') return [name, { list: { message: type.list.message } }];
      return [name, type];
    });
    assert.deepEqual(written, expected, message.name);
  }
});
