// A fresh emitter context: the target, offset and secret keys given, every collection empty and its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext } from '../../src/compile/context.js';
import { settingsOf } from '../helpers/settings.js';

test('the namespace, warn, target, offset and differences as given; the secret keys from the client', () => {
  const warnings: string[] = [];
  const settings = settingsOf({ client: { name: 'c', redact: ['snmp_secret_x'] } });
  const context = newContext(settings, 'ops', (segments, message) => warnings.push(`${segments.join('/')}: ${message}`), { major: 5, minor: 21 }, 120, ['a']);
  assert.equal(context.namespace, 'ops');
  assert.deepEqual(context.target, { major: 5, minor: 21 });
  assert.equal(context.localOffsetMinutes, 120);
  assert.deepEqual([...context.differences], ['a']);
  assert.equal(context.secretKeys.has('snmp_secret_x'), true);
  assert.equal(context.secretKeys.has('password'), true);
  context.warn(['checks', 'disk'], 'x');
  assert.deepEqual(warnings, ['checks/disk: x']);
  for (const map of [context.labelsRead, context.became, context.checkFilters, context.pipelineFilters]) assert.equal(map.size, 0);
  assert.deepEqual(context.labelReport, {});
});

test('by default the latest Sensu Go 6 and the system zone’s offset now', () => {
  const context = newContext(settingsOf({}), 'default', () => undefined);
  assert.deepEqual(context.target, { major: 6, minor: Infinity });
  assert.equal(context.localOffsetMinutes, -new Date().getTimezoneOffset());
  assert.equal(context.differences.size, 0);
});

test('two contexts share nothing', () => {
  const settings = settingsOf({});
  const one = newContext(settings, 'default', () => undefined, undefined, 0, ['x']);
  const two = newContext(settings, 'default', () => undefined, undefined, 0, ['x']);
  one.labelsRead.set('a', 'a');
  one.differences.add('y');
  assert.equal(two.labelsRead.size, 0);
  assert.deepEqual([...two.differences], ['x']);
});
