// expressions: legacy attribute matching (filters, proxy client_attributes) as v2 JavaScript expressions, run here on v2 events and entities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributesToExpressions, entityPath, filterPath } from '../../src/compile/expressions.js';
import type { Json } from '../../src/json.js';

// The compiled expressions are ECMAScript 5 over `event` (filters) or `entity` (proxy requests); all must hold.
const holds = (expressions: string[], name: 'event' | 'entity', subject: Json) =>
  expressions.every((e) => new Function(name, `return (${e});`)(subject) === true);
const filter = (attributes: Json) => attributesToExpressions(attributes, filterPath);

const legacyAttributes = (attributes: Json) => ({ 'checkbridge.io/legacy-attributes': JSON.stringify(attributes) });
const event = (check: Json = {}, labels: Record<string, string> = {}) => ({
  entity: { name: 'web-1', subscriptions: ['web', 'entity:web-1'], labels },
  check: { name: 'disk', status: 2, occurrences: 3, is_silenced: false, subscriptions: ['web'], history: [{ status: 0 }, { status: 2 }], ...check },
});

test('client attributes read the entity: its name, subscriptions, and the rest as labels compared as strings', () => {
  const { expressions, unmapped } = filter({ client: { name: 'web-1', environment: 'production', disk: { warning: 80 }, keepalives: false } });
  assert.deepEqual(unmapped, []);
  const labels = { environment: 'production', disk_warning: '80', keepalives: 'false' };
  assert.equal(holds(expressions, 'event', event({}, labels)), true);
  assert.equal(holds(expressions, 'event', event({}, { ...labels, disk_warning: '90' })), false);
  assert.equal(holds(expressions, 'event', event({}, { ...labels, keepalives: 'true' })), false);
});

test('check fields read the event check; subscribers, source and the status history under their v2 names', () => {
  const { expressions, unmapped } = filter({
    check: { status: 2, subscribers: ['web'], source: 'sw-1', history: ['0', '2'] },
    occurrences: 3,
    silenced: false,
  });
  assert.deepEqual(unmapped, []);
  const matching = event({ proxy_entity_name: 'sw-1' });
  assert.equal(holds(expressions, 'event', matching), true);
  assert.equal(holds(expressions, 'event', { ...matching, check: { ...matching.check, history: [{ status: 0 }, { status: 1 }] } }), false);
  assert.equal(holds(expressions, 'event', { ...matching, check: { ...matching.check, status: 1 } }), false);
  assert.equal(holds(expressions, 'event', { ...matching, check: { ...matching.check, is_silenced: true } }), false);
});

test('custom check attributes, nested ones too, are read from the legacy-attributes annotation, absent or not', () => {
  const { expressions, unmapped } = filter({ check: { team: 'ops', meta: { owner: 'ann' } } });
  assert.deepEqual(unmapped, []);
  assert.equal(holds(expressions, 'event', event({ annotations: legacyAttributes({ team: 'ops', meta: { owner: 'ann' } }) })), true);
  assert.equal(holds(expressions, 'event', event({ annotations: legacyAttributes({ team: 'ops', meta: { owner: 'bob' } }) })), false);
  assert.equal(holds(expressions, 'event', event({ annotations: legacyAttributes({ team: 'ops' }) })), false, 'a missing parent reads as absent');
  assert.equal(holds(expressions, 'event', event()), false, 'no annotations at all');
});

test('a null attribute matches an absent value', () => {
  const { expressions } = filter({ client: { retired: null } });
  assert.equal(holds(expressions, 'event', event()), true);
  assert.equal(holds(expressions, 'event', event({}, { retired: 'yes' })), false);
});

test('what an event does not carry is reported unmapped with its path, not compiled', () => {
  const { expressions, unmapped } = filter({ action: 'resolve', check: { publish: false, handlers: ['a'], output: { x: 1 } }, foo: 1 });
  assert.equal(expressions.length, 1, 'only check.handlers is carried');
  assert.deepEqual(
    unmapped.map((u) => [u.segments.join('.'), u.reason]),
    [
      ['action', 'no v2 event field for action'],
      ['check.publish', 'no v2 event field for check.publish'],
      ['check.output.x', 'no v2 event field for check.output.x'],
      ['foo', 'no v2 event field for foo'],
    ],
  );
});

test('eval clauses become JavaScript over the same value, labels read back as the type they had', () => {
  const { expressions, unmapped } = filter({
    check: { status: 'eval: value > 1', team: 'eval: value.start_with?("o")', history: 'eval: value.any? { |h| h == "2" }' },
    client: { production: 'eval: value == true', cores: 'eval: value >= 4', tags: 'eval: !value.nil? && value.size > 2' },
    occurrences: 'eval: value == 1 || value % 30 == 0',
  });
  assert.deepEqual(unmapped, []);
  const labels = { production: 'true', cores: '8', tags: 'abc' };
  const matching = event({ annotations: legacyAttributes({ team: 'ops' }), occurrences: 30 }, labels);
  assert.equal(holds(expressions, 'event', matching), true);
  assert.equal(holds(expressions, 'event', { ...matching, entity: { ...matching.entity, labels: { ...labels, production: 'false' } } }), false);
  assert.equal(holds(expressions, 'event', { ...matching, entity: { ...matching.entity, labels: { ...labels, cores: '2' } } }), false);
  assert.equal(holds(expressions, 'event', { ...matching, check: { ...matching.check, occurrences: 31 } }), false);
  assert.equal(holds(expressions, 'event', { ...matching, check: { ...matching.check, history: [{ status: 0 }] } }), false);
});

test('negative indexes count from the end; regular expressions match as in Ruby', () => {
  const { expressions, unmapped } = filter({ check: { history: 'eval: value[-1] == value[-2]', output: 'eval: value =~ /disk (full|low)/i' } });
  assert.deepEqual(unmapped, []);
  assert.equal(holds(expressions, 'event', event({ history: [{ status: 0 }, { status: 2 }, { status: 2 }], output: 'DISK LOW' })), true);
  assert.equal(holds(expressions, 'event', event({ history: [{ status: 2 }, { status: 0 }, { status: 2 }], output: 'DISK LOW' })), false);
  assert.equal(holds(expressions, 'event', event({ history: [{ status: 2 }, { status: 2 }], output: 'disk ok' })), false);
});

test('an eval with no JavaScript spelling, or a regular expression Sensu Go cannot run, is unmapped with why', () => {
  const { expressions, unmapped } = filter({ client: { a: 'eval: value.frobnicate', b: 'eval: value =~ /(?<n>a)/' } });
  assert.deepEqual(expressions, []);
  assert.deepEqual(unmapped[0], { segments: ['client', 'a'], reason: 'eval expression has no JavaScript equivalent here: eval: value.frobnicate' });
  assert.deepEqual(unmapped[1]!.segments, ['client', 'b']);
  assert.match(unmapped[1]!.reason, /^regular expression \/\(\?<n>a\)\/: .*: eval: value =~ \/\(\?<n>a\)\/$/);
});

test('proxy client attributes read the candidate entity: name, subscriptions, address and other labels', () => {
  assert.equal(entityPath(['name']), 'entity.name');
  assert.equal(entityPath(['address']), 'entity.labels.address');
  assert.equal(entityPath([]), null);
  const { expressions, unmapped } = attributesToExpressions(
    { name: 'eval: value.downcase == "sw-1"', subscriptions: 'eval: value.include?("switch")', address: '10.0.0.9', rack: { row: 7 } },
    entityPath,
  );
  assert.deepEqual(unmapped, []);
  const entity = { name: 'SW-1', subscriptions: ['switch'], labels: { address: '10.0.0.9', rack_row: '7' } };
  assert.equal(holds(expressions, 'entity', entity), true);
  assert.equal(holds(expressions, 'entity', { ...entity, subscriptions: ['router'] }), false);
  assert.equal(holds(expressions, 'entity', { ...entity, labels: { ...entity.labels, rack_row: '8' } }), false);
});
