// compareOutcomes: whether Sensu Go would have done otherwise with one event, what differed (its kinds) and why, from compile's warnings or the rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareOutcomes } from '../../src/rehearsal/compare.js';
import { planOf } from '../../src/rehearsal/plan.js';
import type { HandlerOutcome } from '../../src/rehearsal/v2-decision.js';
import type { Processed } from '../../src/intake/index.js';
import { settingsOf } from '../helpers/settings.js';

const plan = planOf(
  settingsOf({
    client: { name: 'web-1', address: '10.0.0.1', subscriptions: ['web'] },
    filters: {
      prod: { attributes: { check: { status: 2, publish: false } } },
      office: { attributes: { check: { status: 2 } }, when: { days: { all: [{ begin: '9:00 AM', end: '5:00 PM' }] } } },
    },
    mutators: {},
    handlers: {
      mail: { type: 'pipe', command: 'mail', filters: ['prod', 'office'] },
      page: { type: 'pipe', command: 'page', mutator: 'nowhere' },
    },
    checks: { disk: { command: 'check-disk', subscribers: ['web'], interval: 60, handlers: ['mail', 'page'], occurrences: 2.5 } },
  }),
);

// A processed legacy event: a narrow shape of what the intake hands on.
const processed = (check = 'disk', handle = true, extra: Record<string, unknown> = {}): Processed =>
  ({
    event: {
      client: { name: 'web-1' },
      check: { name: check, status: 2, ...extra },
      occurrences: 3,
      occurrences_watermark: 3,
      action: 'create',
      timestamp: 1_700_000_000.7,
    },
    handle,
    history: [],
  }) as unknown as Processed;
const v2Event = { check: { occurrences: 1, occurrences_watermark: 1 } };
const called = (handler: string): HandlerOutcome => ({ handler, handled: true, detail: 'handled (event as JSON)' });
const stopped = (handler: string, by: string): HandlerOutcome => ({ handler, handled: false, by, detail: `filtered by ${by}` });

test('the same handlers called and no token rendered differently: no divergence', () => {
  assert.equal(compareOutcomes(plan, processed(), [called('mail'), stopped('page', 'x')], [called('mail'), stopped('page', 'y')], v2Event, []), null);
});

test("a legacy filter deciding otherwise is a filter divergence, explained by that filter's warnings; the event is described", () => {
  const divergence = compareOutcomes(plan, processed(), [called('mail')], [stopped('mail', 'prod')], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['filter']);
  assert.deepEqual([divergence.at, divergence.client, divergence.check, divergence.status, divergence.action], [1_700_000_000, 'web-1', 'disk', 2, 'create']);
  assert.deepEqual(divergence.handlers, [{ handler: 'mail', legacy: 'handled (event as JSON)', v2: 'filtered by prod' }]);
  assert.ok(divergence.why.length > 0);
  for (const why of divergence.why) assert.match(why, /^filters\/prod\/attributes: no v2 event field for check\.publish/);
});

test('a filter with when is a when divergence', () => {
  const divergence = compareOutcomes(plan, processed(), [called('mail')], [stopped('mail', 'office')], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['when']);
  assert.ok(divergence.why.some((w) => w.startsWith('filters/office/when: ')));
});

test('occurrences: the counts on each side, or settings legacy ignored, are why', () => {
  const divergence = compareOutcomes(plan, processed('disk', true, { occurrences: 2.5 }), [called('mail')], [stopped('mail', 'occurrences')], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['occurrences']);
  assert.match(divergence.why[0]!, /^occurrences 2\.5, refresh 1800: not whole numbers, so legacy's occurrences filter let every event through/);
  const counted = compareOutcomes(plan, processed(), [stopped('mail', 'occurrences')], [called('mail')], v2Event, [])!;
  assert.equal(counted.why[0], 'occurrences 1, refresh 1800: legacy counted 3 occurrences (watermark 3), Sensu Go 1 (watermark 1)');
});

test("a missing mutator is a mutator divergence explained by the handler's mutator warning", () => {
  const v2: HandlerOutcome = { handler: 'page', handled: false, by: 'mutator', detail: 'fails: mutator nowhere not found' };
  const divergence = compareOutcomes(plan, processed(), [called('page')], [v2], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['mutator']);
  assert.deepEqual(divergence.why.length, 1);
  assert.match(divergence.why[0]!, /^handlers\/page\/mutator: mutator nowhere is not defined/);
});

test('an event legacy did not handle at all but Sensu Go did is a handled divergence', () => {
  const divergence = compareOutcomes(plan, processed('disk', false), [], [called('mail')], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['handled']);
  assert.equal(divergence.handlers[0]!.legacy, 'not handled: legacy handles non-OK results, resolutions, flapping and metrics only');
});

test('a check with no CheckConfig is an unconfigured divergence; a handler on one side only is "not one of its handlers"', () => {
  const divergence = compareOutcomes(plan, processed('elsewhere'), [], [called('mail')], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['unconfigured']);
  assert.equal(divergence.handlers[0]!.legacy, 'not one of its handlers');
  assert.match(divergence.why[0]!, /^check elsewhere has no CheckConfig/);
});

test('a token rendered differently is a token divergence, whatever the handlers did', () => {
  const divergence = compareOutcomes(plan, processed(), [called('mail')], [called('mail')], v2Event, [
    { token: ':::disk.warning:::', label: 'disk_warning' },
    { token: ':::name:::', label: null },
  ])!;
  assert.deepEqual(divergence.kinds, ['token']);
  assert.deepEqual(divergence.handlers, []);
  assert.equal(divergence.tokens!.length, 2);
  assert.match(
    divergence.why[0]!,
    /^:::disk\.warning:::: the agent reads the label disk_warning, which the Entity compile emits for client web-1 does not carry/,
  );
  assert.equal(divergence.why[1], ':::name:::: the agent renders it differently from legacy');
});

test('a divergence no warning explains says so', () => {
  const divergence = compareOutcomes(plan, processed(), [called('mail')], [stopped('mail', 'not_silenced')], v2Event, [])!;
  assert.deepEqual(divergence.kinds, ['pipeline']);
  assert.deepEqual(divergence.why, ['no compile warning explains it']);
});
