// Legacy attributes_match?: how a filter's or a subdue's attributes are compared with an event's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalAttribute } from '../../src/ruby-eval/index.js';
import { attributesMatch } from '../../src/schedule/attributes.js';

test('equal values match; objects are compared key by key, recursively, and every key must match', () => {
  const event = { client: { name: 'web', tags: ['a', 'b'], env: { region: 'eu', zone: 1 } }, check: { status: 2 } };
  assert.equal(attributesMatch(event, {}), true, 'nothing to match');
  assert.equal(attributesMatch(event, { client: { name: 'web' } }), true, 'a subset of the keys');
  assert.equal(attributesMatch(event, { client: { env: { region: 'eu' } } }), true, 'nested');
  assert.equal(attributesMatch(event, { client: { env: { region: 'us' } } }), false);
  assert.equal(attributesMatch(event, { client: { name: 'web' }, check: { status: 1 } }), false, 'one key differs');
  assert.equal(attributesMatch(event, { client: { tags: ['a', 'b'] } }), true, 'arrays equal element by element');
  assert.equal(attributesMatch(event, { client: { tags: ['b', 'a'] } }), false, 'in order');
  assert.equal(attributesMatch(event, { client: { tags: ['a'] } }), false, 'and in length');
  assert.equal(attributesMatch(event, { client: { missing: { deeper: 1 } } }), false, 'an object against nothing');
});

test('values equal as Ruby strings match: 2 and "2", true and "true", a missing key and ""', () => {
  const event = { check: { status: 2, flapping: true, output: '' } };
  assert.equal(attributesMatch(event, { check: { status: '2' } }), true);
  assert.equal(attributesMatch(event, { check: { flapping: 'true' } }), true);
  assert.equal(attributesMatch(event, { check: { absent: '' } }), true, 'nil.to_s is ""');
  assert.equal(attributesMatch(event, { check: { absent: null } }), true);
  assert.equal(attributesMatch(event, { check: { status: '2.0' } }), false);
});

test('an eval: attribute goes to the hook only when one is given, and only when plainer comparisons fail', () => {
  const event = { check: { status: 2 } };
  assert.equal(attributesMatch(event, { check: { status: 'eval: value == 2' } }), false, 'no hook: compared as a string');
  const seen: unknown[] = [];
  const hook = (attribute: string, value: unknown, root: Record<string, unknown>) => {
    seen.push([attribute, value, root]);
    return true;
  };
  assert.equal(attributesMatch(event, { check: { status: 'eval: anything' } }, hook), true);
  assert.deepEqual(seen, [['eval: anything', 2, event]], 'the value found and the whole object matched');
  assert.equal(attributesMatch(event, { check: { status: 'not eval' } }, hook), false, 'a plain string never reaches the hook');
  assert.equal(seen.length, 1);
});

test('attributesMatch passes the root object to the evaluator for its tokens', () => {
  const event = { client: { name: 'web', env: 'prod' }, check: { status: 2 } };
  const hook = (attribute: string, value: unknown, root: Record<string, unknown>) => {
    const outcome = evalAttribute(attribute, value, root);
    return outcome.ok && outcome.matched;
  };
  assert.equal(attributesMatch(event, { check: { status: 'eval: value == 2' } }, hook), true);
  assert.equal(attributesMatch(event, { check: { status: 'eval: value == 1' } }, hook), false);
  assert.equal(attributesMatch(event, { check: { status: 'eval: ":::client.env:::" == "prod" && value > 1' } }, hook), true);
  assert.equal(attributesMatch(event, { check: { status: '2' } }, hook), true, 'to_s equality');
});
