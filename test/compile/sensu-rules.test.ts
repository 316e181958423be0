// sensu-rules: the version targets, seconds as Sensu Go decodes them, and what sensuProblem refuses beyond the rule book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atLeast, parseTarget, seconds, sensuProblem } from '../../src/compile/sensu-rules.js';
import type { Resource } from '../../src/compile/model.js';
import type { Json } from '../../src/json.js';

const latest = parseTarget('6.x')!;
const doc = (type: string, spec: Json, metadata: Resource['metadata'] = { name: 'x', namespace: 'default' }): Resource => ({
  type,
  api_version: 'core/v2',
  metadata,
  spec,
});
const checkSpec = { command: 'x', publish: true, interval: 60, ttl: 0, timeout: 0, low_flap_threshold: 0, high_flap_threshold: 0, subscriptions: ['a'] };
const check = (spec: Json, target = latest) => sensuProblem(doc('CheckConfig', { ...checkSpec, ...spec }), target);
const window = (begin: string, end: string, repeat?: string[]) => ({ begin, end, ...(repeat ? { repeat } : {}) });

test('a target is any Sensu Go 6 version; a bare 6 or 6.x means the latest minor, a patch is ignored', () => {
  assert.deepEqual(parseTarget('6'), { major: 6, minor: Infinity });
  assert.deepEqual(parseTarget('6.x'), { major: 6, minor: Infinity });
  assert.deepEqual(parseTarget('6.7'), { major: 6, minor: 7 });
  assert.deepEqual(parseTarget('6.7.1'), { major: 6, minor: 7 });
  assert.deepEqual(parseTarget(' 6.3 '), { major: 6, minor: 3 }, 'surrounding blanks are trimmed');
  for (const other of ['5.21', '7', '6.', 'six', '', '16.1']) assert.equal(parseTarget(other), null, other);
});

test('atLeast compares the major first, then the minor; the latest 6 is at least every 6', () => {
  assert.equal(atLeast({ major: 6, minor: 7 }, 6, 7), true);
  assert.equal(atLeast({ major: 6, minor: 6 }, 6, 7), false);
  assert.equal(atLeast({ major: 7, minor: 0 }, 6, 7), true);
  assert.equal(atLeast({ major: 5, minor: 99 }, 6, 0), false);
  assert.equal(atLeast(latest, 6, 1000), true);
});

test('seconds round fractions up and turn negatives and non-numbers into 0', () => {
  assert.equal(seconds(2.1), 3);
  assert.equal(seconds(0.0001), 1);
  assert.equal(seconds(60), 60);
  assert.equal(seconds(-3), 0);
  for (const other of ['5', NaN, Infinity, null, undefined]) assert.equal(seconds(other), 0, String(other));
});

test('every document but a Namespace needs a namespace, and label values must be strings', () => {
  assert.equal(sensuProblem(doc('Entity', { entity_class: 'proxy', subscriptions: [] }, { name: 'x' }), latest), 'namespace must be set');
  assert.equal(sensuProblem(doc('Namespace', { name: 'x' }, { name: 'x' }), latest), null);
  const labelled = doc('Entity', { entity_class: 'proxy', subscriptions: [] }, { name: 'x', namespace: 'default', labels: { n: 1 as unknown as string } });
  assert.equal(sensuProblem(labelled, latest), 'label values must be strings');
});

test('a silenced entry is named subscription:check, which is no resource name, and is not refused for it', () => {
  const silenced = doc('Silenced', { subscription: 'a', check: 'b', expire: -1, expire_on_resolve: false }, { name: 'a:b', namespace: 'default' });
  assert.equal(sensuProblem(silenced, latest), null);
});

test('numbers Sensu Go decodes as uint32 must be whole and in range; ttl must be an integer', () => {
  assert.equal(check({ interval: -1 }), 'interval must be a whole number of seconds');
  assert.equal(check({ interval: 2 ** 32 }), 'interval must be a whole number of seconds');
  assert.equal(check({ high_flap_threshold: '5' }), 'high_flap_threshold must be a whole number of seconds');
  assert.equal(check({ ttl: 1.5 }), 'ttl must be an integer');
  assert.equal(sensuProblem(doc('HookConfig', { command: 'true', timeout: -1, stdin: false }), latest), 'timeout must be a whole number of seconds');
  assert.equal(
    check({ proxy_requests: { entity_attributes: [], splay: true, splay_coverage: -1 } }),
    'proxy_requests.splay_coverage must be between 0 and 100',
  );
  assert.equal(sensuProblem(doc('Handler', { type: 'tcp', socket: { host: 'h', port: -1 }, timeout: 0 }), latest), 'socket port undefined');
  assert.equal(sensuProblem(doc('Handler', { type: 'tcp', socket: { host: 'h', port: 2003 }, timeout: 0 }), latest), null);
});

test('subdues windows need RFC 3339 times, an end not before the begin (across zones), and known repeats', () => {
  const at67 = parseTarget('6.7')!;
  assert.equal(check({ subdues: [window('2024-01-01T10:00:00Z', '2024-01-01T11:00:00Z', ['weekdays'])] }, at67), null);
  assert.equal(check({ subdues: [window('2024-01-01 10:00', '2024-01-01T11:00:00Z')] }, at67), 'subdues begin and end must be RFC 3339 times');
  assert.equal(check({ subdues: [window('2024-01-01T10:00:00Z', '2024-01-01T09:00:00Z')] }, at67), 'end time must be after begin time');
  // 11:00 at +02:00 is 09:00 UTC, before the begin.
  assert.equal(check({ subdues: [window('2024-01-01T10:00:00Z', '2024-01-01T11:00:00+02:00')] }, at67), 'end time must be after begin time');
  assert.equal(check({ subdues: [window('2024-01-01T10:00:00Z', '2024-01-01T11:00:00Z', ['fortnightly'])] }, at67), 'invalid repeat period: fortnightly');
});

test('proxy entity_attributes and filter expressions must be ECMAScript 5; a long expression is shortened in the message', () => {
  assert.match(check({ proxy_requests: { entity_attributes: ['let x = 1'], splay: false, splay_coverage: 0 } })!, /^entity_attributes "let x = 1": /);
  const filter = (expressions: string[], extra: Json = {}) => sensuProblem(doc('EventFilter', { action: 'allow', expressions, ...extra }), latest);
  assert.equal(filter(['event.check.status == 2']), null);
  assert.match(filter(['let x = 1'])!, /^syntax error in expression "let x = 1": /);
  const long = filter(['let x = 1; ' + 'y'.repeat(100)])!;
  assert.match(long, /^syntax error in expression "let x = 1; y+\.\.\.": /);
  assert.equal(long.match(/"(.*)"/)![1]!.length, 80);
  assert.equal(filter(['event.check.status == 2'], { when: { days: {} } }), 'when is dropped by sensuctl and applied differently from legacy');
});

test('pipeline references must be well-named core/v2 Pipelines', () => {
  assert.equal(check({ pipelines: [{ name: 'p', type: 'Pipeline', api_version: 'core/v2' }] }), null);
  assert.equal(
    check({
      pipelines: [
        { name: 'p', type: 'Pipeline', api_version: 'core/v2' },
        { name: 'h', type: 'Handler', api_version: 'core/v2' },
      ],
    }),
    'pipelines[1]: resource type not capable of acting as a pipeline: core/v2.Handler',
  );
  assert.match(check({ pipelines: [{ name: 'a b', type: 'Pipeline', api_version: 'core/v2' }] })!, /^pipelines\[0\]\.name must be/);
});

test('every string of a check or hook is a template the agent must parse, labels and annotations included', () => {
  const annotated = doc('CheckConfig', checkSpec, { name: 'c', namespace: 'default', annotations: { note: '{{ .a' } });
  assert.equal(sensuProblem(annotated, latest), 'template "{{ .a": unclosed action');
  const labelled = doc('CheckConfig', checkSpec, { name: 'c', namespace: 'default', labels: { x: '{{ nope }}' } });
  assert.equal(sensuProblem(labelled, latest), 'template "{{ nope }}": function "nope" not defined');
  assert.equal(check({ env_vars: ['A={{ if .x }}'] }), 'template "A={{ if .x }}": unexpected EOF (an unclosed {{if}})');
  assert.equal(sensuProblem(doc('HookConfig', { command: '{{ .a', timeout: 10, stdin: false }), latest), 'template "{{ .a": unclosed action');
  const long = check({ command: 'x'.repeat(100) + '{{ .a' })!;
  assert.equal(long, `template "${'x'.repeat(77)}...": unclosed action`);
  // A handler's command is not rendered as a template.
  assert.equal(sensuProblem(doc('Handler', { type: 'pipe', command: 'echo {{ .a', timeout: 0 }), latest), null);
});
