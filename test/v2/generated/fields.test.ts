// The generated table of Sensu Go's JSON fields: known kinds as Go writes them, and a table whose references all resolve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SENSU_GO_FIELDS } from '../../../src/v2/generated/fields.js';
import { HOOK_LISTS, isScalar, type WireType } from '../../../src/v2/field-spec.js';

const names = (kind: string) => SENSU_GO_FIELDS[kind]!.map((field) => field.name);
const field = (kind: string, name: string) => SENSU_GO_FIELDS[kind]!.find((f) => f.name === name);

test('an event: its fields in the order Go writes them, with how each is written', () => {
  assert.deepEqual(SENSU_GO_FIELDS.Event, [
    { name: 'timestamp', type: 'int64', omitEmpty: true },
    { name: 'entity', type: { message: 'Entity' }, omitEmpty: true },
    { name: 'check', type: { message: 'Check' }, omitEmpty: true },
    { name: 'metrics', type: { message: 'Metrics' }, omitEmpty: true },
    { name: 'metadata', type: { message: 'ObjectMeta' }, byValue: true },
    { name: 'id', type: 'string', nullWhenUnset: true },
    { name: 'sequence', type: 'int64' },
    { name: 'pipelines', type: { list: { message: 'ResourceReference', pointer: true } } },
  ]);
});

test("a check's history entry is a status and an execution time; check hooks and handler lists are written as Go writes them", () => {
  assert.deepEqual(SENSU_GO_FIELDS.CheckHistory, [
    { name: 'status', type: 'uint32' },
    { name: 'executed', type: 'int64' },
  ]);
  assert.deepEqual(field('CheckConfig', 'check_hooks'), { name: 'check_hooks', type: HOOK_LISTS });
  assert.deepEqual(field('Check', 'handlers'), { name: 'handlers', type: { list: 'string' }, neverNull: true });
  assert.deepEqual(field('Silenced', 'expire_on_resolve'), { name: 'expire_on_resolve', type: 'bool' });
});

test("fields Go skips are not in the table; an embedded struct's fields are read among the outer type's own", () => {
  assert.equal(field('Entity', 'extended_attributes'), undefined);
  assert.equal(field('CheckHistory', 'flapping'), undefined);
  assert.deepEqual(names('Hook').slice(0, names('HookConfig').length), names('HookConfig'));
  assert.deepEqual(names('Hook').slice(names('HookConfig').length, names('HookConfig').length + 1), ['duration']);
});

test('the API kinds the agent never sends are described too', () => {
  for (const kind of ['Handler', 'Mutator', 'EventFilter', 'Pipeline', 'Silenced', 'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'])
    assert.ok(names(kind).includes('metadata'), kind);
  assert.deepEqual(names('RoleRef'), ['type', 'name']);
});

test('each kind names a field once, and every message a field refers to is a kind of the table', () => {
  const messageOf = (type: WireType): string | null => {
    if (typeof type === 'string') return null;
    if ('message' in type) return type.message;
    const inner = 'list' in type ? type.list : type.map;
    return typeof inner === 'string' ? null : inner.message;
  };
  for (const [kind, fields] of Object.entries(SENSU_GO_FIELDS)) {
    assert.equal(new Set(names(kind)).size, fields.length, `${kind} names a field twice`);
    for (const { name, type } of fields) {
      const message = messageOf(type);
      if (message !== null) assert.ok(SENSU_GO_FIELDS[message], `${kind}.${name} refers to ${message}, not in the table`);
      else if (typeof type === 'string') assert.ok(isScalar(type) || type === 'map<string,string>' || type === HOOK_LISTS, `${kind}.${name}: ${type}`);
    }
  }
});
