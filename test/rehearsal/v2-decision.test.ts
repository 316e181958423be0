// v2Decision and v2DecisionNow: what Sensu Go would do with an event under the compiled resources, per handler called or the filter that stopped it.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { v2Decision, v2DecisionNow, type VerdictCache } from '../../src/rehearsal/v2-decision.js';
import { planOf } from '../../src/rehearsal/plan.js';
import { loadExpressionSandbox } from '../../src/js-sandbox/expressions.js';
import { settingsOf } from '../helpers/settings.js';
import type { Json } from '../../src/json.js';

before(() => loadExpressionSandbox());

const plan = planOf(
  settingsOf({
    client: { name: 'web-1', address: '10.0.0.1', subscriptions: ['web'] },
    filters: { critical: { attributes: { check: { status: 2 } } } },
    mutators: { tag: { command: 'tag' } },
    handlers: {
      mail: { type: 'pipe', command: 'mail' },
      page: { type: 'pipe', command: 'page', filters: ['critical'], mutator: 'tag' },
      slow: { type: 'pipe', command: 'slow', filters: ['occurrences'] },
    },
    checks: { disk: { command: 'check-disk', subscribers: ['web'], interval: 60, handlers: ['mail', 'page', 'slow'], occurrences: 3 } },
  }),
);
const config = plan.resources.get('CheckConfig/disk')!;
const NOW = Date.parse('2023-11-14T22:13:20Z');

/** A v2 event of the compiled check `disk`, as the rehearsal builds it. */
function event(check: Json = {}, extra: Json = {}): Json {
  return {
    timestamp: NOW / 1000,
    entity: { metadata: { name: 'web-1', namespace: 'default', labels: {} }, entity_class: 'agent' },
    check: {
      metadata: { name: 'disk', namespace: 'default', annotations: { ...config.metadata.annotations } },
      status: 2,
      state: 'failing',
      occurrences: 1,
      occurrences_watermark: 1,
      interval: 60,
      is_silenced: false,
      history: [
        { status: 0, executed: 1 },
        { status: 2, executed: 2 },
      ],
      handlers: config.handlers,
      ...check,
    },
    pipelines: config.pipelines,
    ...extra,
  };
}
const summary = (outcomes: { handler: string; handled: boolean; by?: string; detail: string }[]) =>
  Object.fromEntries(outcomes.map((o) => [o.handler, o.handled ? o.detail : `${o.by}: ${o.detail}`]));

test('a critical result passes every pipeline but the one whose occurrences are not reached; a mutator is named', async () => {
  assert.deepEqual(summary(await v2Decision(plan, event(), NOW)), {
    mail: 'handled (event as JSON)',
    page: 'handled (mutator tag)',
    slow: 'occurrences: filtered by occurrences',
  });
  assert.equal(summary(await v2Decision(plan, event({ occurrences: 3, occurrences_watermark: 3 }), NOW)).slow, 'handled (event as JSON)');
});

test("a user filter decides in the sandbox; compile's filters and the built-in ones stop what legacy would not handle", async () => {
  assert.equal(summary(await v2Decision(plan, event({ status: 1 }), NOW)).page, 'critical: filtered by critical');
  const ok = summary(await v2Decision(plan, event({ status: 0, history: [{ status: 0, executed: 1 }] }), NOW));
  assert.equal(ok.mail, 'checkbridge-handled: filtered by checkbridge-handled');
  assert.equal(summary(await v2Decision(plan, event({ is_silenced: true }), NOW)).mail, 'not_silenced: filtered by not_silenced');
  assert.equal(summary(await v2Decision(plan, event({ state: 'flapping' }), NOW)).mail, 'not-flapping: filtered by not-flapping');
});

test('inside a repeated subdues window no handler is called', async () => {
  // NOW is 22:13 UTC.
  const subdues = [{ begin: '2000-01-01T20:00:00Z', end: '2000-01-01T23:00:00Z', repeat: ['daily'] }];
  for (const outcome of await v2Decision(plan, event({ subdues }), NOW)) assert.deepEqual([outcome.handled, outcome.by], [false, 'subdues'], outcome.handler);
  const outside = [{ begin: '2000-01-01T08:00:00Z', end: '2000-01-01T09:00:00Z', repeat: ['daily'] }];
  assert.equal(summary(await v2Decision(plan, event({ subdues: outside }), NOW)).mail, 'handled (event as JSON)');
});

test('a pipeline that does not exist is reported; without pipelines the check names its handlers directly, unfiltered', async () => {
  const missing = await v2Decision(plan, event({}, { pipelines: [...config.pipelines, { name: 'gone', type: 'Pipeline', api_version: 'core/v2' }] }), NOW);
  assert.deepEqual(
    missing.find((o) => o.handler === 'gone'),
    { handler: 'gone', handled: false, by: 'pipeline', detail: 'pipeline gone not found' },
  );
  const direct = await v2Decision(plan, event({ status: 0, history: [], handlers: ['mail', 'nobody'] }, { pipelines: [] }), NOW);
  assert.deepEqual(summary(direct), { mail: 'handled (event as JSON)', nobody: 'handler: handler nobody not found' });
});

test('the decision now needs every verdict known; once the sandbox gave one, events with the same fields are decided at once', async () => {
  const cache: VerdictCache = new Map();
  // A user filter's verdict is never kept: the event goes through mail's and slow's pipelines only.
  const pipelines = config.pipelines.filter((p: Json) => p.name !== 'page');
  const first = event({}, { pipelines });
  assert.equal(v2DecisionNow(plan, first, cache), null, 'the occurrences filter must run in the sandbox');
  const decided = await v2Decision(plan, first, NOW, cache);
  const again = v2DecisionNow(plan, event({ output: 'another result' }, { pipelines }), cache);
  assert.deepEqual(again, decided);
  assert.equal(v2DecisionNow(plan, event({ occurrences: 2, occurrences_watermark: 2 }, { pipelines }), cache), null, 'other counts: not known');
});
