// emitFilters, emitHandlers, emitMutators: legacy filters, handlers and mutators as v2 resources; the compiled filters are run here on v2 events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitFilters, emitHandlers, emitMutators } from '../../src/compile/handlers.js';
import { newContext } from '../../src/compile/context.js';
import type { Resource } from '../../src/compile/model.js';
import { settingsOf } from '../helpers/settings.js';
import type { Json } from '../../src/json.js';

function contextFor(config: Record<string, unknown>) {
  const warnings: string[] = [];
  const settings = settingsOf(config);
  const ctx = newContext(settings, 'ops', (segments, message) => warnings.push(`${segments.join('/')}: ${message}`), undefined, 0);
  const warned = (path: string) => warnings.filter((w) => w.startsWith(`${path}: `)).map((w) => w.slice(path.length + 2));
  return { settings, ctx, warnings, warned };
}
const named = (resources: Resource[], type: string, name: string) => resources.find((r) => r.type === type && r.metadata.name === name);
// Sensu Go's decision for one filter: allow passes when every expression holds, deny drops when any does.
function passes(filter: Resource, event: Json): boolean {
  const results = (filter.spec.expressions as string[]).map((e) => new Function('event', `return (${e});`)(event) === true);
  return filter.spec.action === 'allow' ? results.every(Boolean) : !results.some(Boolean);
}
const event = (check: Json = {}, extra: Json = {}) => ({
  timestamp: 1700000000,
  is_resolution: false,
  entity: { name: 'web-1', labels: { environment: 'production' } },
  check: { name: 'disk', status: 2, state: 'failing', occurrences: 1, interval: 60, history: [{ status: 2 }], annotations: {}, ...check },
  ...extra,
});

test('a negated filter denies only when all its attributes match, as legacy did', () => {
  const { settings, ctx } = contextFor({ filters: { quiet: { negate: true, attributes: { client: { environment: 'production' }, check: { status: 1 } } } } });
  const [filter] = emitFilters(settings, ctx);
  assert.equal(filter!.spec.action, 'deny');
  assert.equal(filter!.spec.expressions.length, 1, 'one conjunction');
  assert.equal(passes(filter!, event({ status: 1 })), false);
  assert.equal(passes(filter!, event({ status: 2 })), true);
  assert.deepEqual(ctx.became.get('filters/quiet'), ['EventFilter/quiet']);
  assert.equal(ctx.labelsRead.get('environment'), 'environment', 'the entity labels a filter reads are recorded');
});

test('a negated filter with an attribute it cannot express, or a filter with nothing to test, is not emitted', () => {
  const { settings, ctx, warned } = contextFor({
    filters: { partial: { negate: true, attributes: { check: { status: 2, publish: false } } }, empty: { attributes: { foo: 1 } } },
  });
  assert.deepEqual(emitFilters(settings, ctx), []);
  assert.match(warned('filters/partial/attributes/check/publish')[0]!, /the negated filter would deny more events than legacy/);
  assert.match(warned('filters/partial/attributes')[0]!, /^filter partial is not emitted/);
  assert.match(warned('filters/empty/attributes')[0]!, /^filter empty is not emitted/);
  assert.deepEqual([ctx.became.get('filters/partial'), ctx.became.get('filters/empty')], [[], []]);
});

test('an allow filter keeps what it can express, warns about the rest and keeps its attributes in the legacy annotation, secrets redacted', () => {
  const { settings, ctx, warned } = contextFor({ filters: { some: { attributes: { check: { status: 2, publish: false }, client: { password: 'x' } } } } });
  const [filter] = emitFilters(settings, ctx);
  assert.deepEqual(filter!.spec.expressions, ['event.check.status == 2', 'event.entity.labels.password == "x"']);
  assert.match(warned('filters/some/attributes/check/publish')[0]!, /left out, so the filter passes more events than legacy/);
  const kept = JSON.parse(filter!.metadata.annotations!['checkbridge.io/legacy-attributes']!);
  assert.equal(kept.attributes.check.publish, false);
  assert.notEqual(kept.attributes.client.password, 'x');
});

test('actions test resolution and flapping; an unknown action is unmapped', () => {
  const { settings, ctx, warned } = contextFor({
    filters: { creates: { attributes: { action: 'create' } }, flaps: { attributes: { action: 'flapping' } }, odd: { attributes: { action: 'poke' } } },
  });
  const resources = emitFilters(settings, ctx);
  const creates = named(resources, 'EventFilter', 'creates')!;
  assert.equal(passes(creates, event()), true);
  assert.equal(passes(creates, event({}, { is_resolution: true })), false);
  assert.equal(passes(creates, event({ state: 'flapping' })), false);
  assert.equal(passes(named(resources, 'EventFilter', 'flaps')!, event({ state: 'flapping' })), true);
  assert.equal(named(resources, 'EventFilter', 'odd'), undefined);
  assert.match(warned('filters/odd/attributes/action')[0]!, /^unknown action poke/);
});

test('an allow filter with when applies only inside its windows: outside them every event passes', () => {
  const { settings, ctx } = contextFor({
    filters: { prod: { attributes: { check: { status: 1 } }, when: { days: { all: [{ begin: '12:00 AM', end: '11:59 PM' }] } } } },
  });
  const [filter] = emitFilters(settings, ctx);
  assert.equal(filter!.spec.expressions.length, 1);
  assert.match(filter!.spec.expressions[0], /^!\(.*\) \|\| \(event\.check\.status == 1\)$/);
  // The window covers the whole day (but its last minute), so inside it the attributes decide.
  assert.equal(passes(filter!, event({ status: 1 })), true);
  assert.equal(passes(filter!, event({ status: 2 })), false);
});

test('the checkbridge-handled filter passes what legacy handled: non-OK, resolutions unless auto_resolve is off, flapping, metrics', () => {
  const { settings, ctx } = contextFor({ handlers: { mail: { type: 'pipe', command: 'm' } } });
  const handled = named(emitHandlers(settings, ctx, new Set()), 'EventFilter', 'checkbridge-handled')!;
  assert.equal(passes(handled, event()), true);
  assert.equal(passes(handled, event({ status: 0 })), false);
  assert.equal(passes(handled, event({ status: 0 }, { is_resolution: true })), true);
  assert.equal(passes(handled, event({ status: 0, annotations: { 'checkbridge.io/auto-resolve': 'false' } }, { is_resolution: true })), false);
  assert.equal(passes(handled, event({ status: 0, state: 'flapping' })), true);
  assert.equal(passes(handled, event({ status: 0, annotations: { 'checkbridge.io/type': 'metric' } })), true);
});

test('severities pass the listed statuses, and resolutions of events that had one of them', () => {
  const { settings, ctx } = contextFor({ handlers: { mail: { type: 'pipe', command: 'm', severities: ['critical', 'unknown'] } } });
  const filter = named(emitHandlers(settings, ctx, new Set()), 'EventFilter', 'mail-severities')!;
  assert.equal(passes(filter, event({ status: 2 })), true);
  assert.equal(passes(filter, event({ status: 3 })), true);
  assert.equal(passes(filter, event({ status: 1, history: [{ status: 1 }] })), false);
  assert.equal(passes(filter, event({ status: 0, history: [{ status: 2 }, { status: 0 }] }, { is_resolution: true })), true);
  assert.equal(passes(filter, event({ status: 0, history: [{ status: 1 }, { status: 0 }] }, { is_resolution: true })), false);
  assert.deepEqual(ctx.became.get('handlers/mail'), ['Handler/mail', 'EventFilter/mail-severities', 'Pipeline/mail']);
});

test("a pipeline's filters: handled first, then the listed ones that exist, built-ins once, silencing, flapping, and the check filters", () => {
  const { settings, ctx, warned } = contextFor({
    filters: { prod: { attributes: { check: { status: 2 } } }, broken: { negate: true, attributes: { foo: 1 } } },
    handlers: {
      a: { type: 'pipe', command: 'a', filters: ['prod', 'broken', 'occurrences', 'missing'] },
      b: { type: 'pipe', command: 'b', filter: 'occurrences', handle_silenced: true },
    },
  });
  ctx.pipelineFilters.set('a', ['checkbridge-subdue-disk']);
  const resources = emitHandlers(settings, ctx, new Set(['prod']));
  const filtersOf = (name: string) => named(resources, 'Pipeline', name)!.spec.workflows[0].filters.map((f: { name: string }) => f.name);
  assert.deepEqual(filtersOf('a'), ['checkbridge-handled', 'prod', 'occurrences', 'not_silenced', 'not-flapping', 'checkbridge-subdue-disk']);
  assert.deepEqual(filtersOf('b'), ['checkbridge-handled', 'occurrences', 'not-flapping']);
  assert.deepEqual(warned('handlers/a/filters'), [
    'filter broken could not be emitted (see its warnings): left out of this pipeline',
    'filter missing is not defined and has no v2 equivalent: left out',
  ]);
  for (const builtin of ['occurrences', 'not-flapping', 'checkbridge-handled'])
    assert.equal(resources.filter((r) => r.metadata.name === builtin).length, 1, builtin);
});

test('handler specs: types, sockets, whole-second timeouts, kept attributes; sets get no pipeline, transports nothing', () => {
  const { settings, ctx, warned } = contextFor({
    client: { name: 'c', address: 'a', subscriptions: [], redact: ['api_token'] },
    handlers: {
      udp: { type: 'udp', socket: { host: 'statsd', port: 8125 }, timeout: 2.5 },
      pipe: { type: 'pipe', command: 'p', api_token: 'secret', severity_label: 'x' },
      group: { type: 'set', handlers: ['udp', 'pipe'] },
      broker: { type: 'transport', pipe: { type: 'topic', name: 'events' } },
    },
  });
  const resources = emitHandlers(settings, ctx, new Set());
  const udp = named(resources, 'Handler', 'udp')!;
  assert.deepEqual([udp.spec.socket, udp.spec.timeout], [{ host: 'statsd', port: 8125 }, 3]);
  assert.match(warned('handlers/udp/timeout')[0]!, /^timeout 2\.5 is not a whole number of seconds.*emitted as 3$/);
  const pipe = named(resources, 'Handler', 'pipe')!;
  assert.equal(pipe.spec.command, 'p');
  const kept = JSON.parse(pipe.metadata.annotations!['checkbridge.io/legacy-attributes']!);
  assert.equal(kept.severity_label, 'x');
  assert.notEqual(kept.api_token, 'secret');
  assert.deepEqual(named(resources, 'Handler', 'group')!.spec.handlers, ['udp', 'pipe']);
  assert.equal(named(resources, 'Pipeline', 'group'), undefined);
  assert.equal(named(resources, 'Handler', 'broker'), undefined);
  assert.match(warned('handlers/broker/type')[0]!, /^handler type transport has no v2 equivalent/);
});

test('a mutator that exists is referenced; json is not; an undefined one is dropped with a warning', () => {
  const { settings, ctx, warned } = contextFor({
    mutators: { tag: { command: 'tag' } },
    handlers: {
      tagged: { type: 'pipe', command: 'a', mutator: 'tag' },
      plain: { type: 'pipe', command: 'a', mutator: 'json' },
      lost: { type: 'pipe', command: 'a', mutator: 'nowhere' },
    },
  });
  const resources = emitHandlers(settings, ctx, new Set());
  const mutatorOf = (name: string) => named(resources, 'Pipeline', name)!.spec.workflows[0].mutator;
  assert.deepEqual(mutatorOf('tagged'), { name: 'tag', type: 'Mutator', api_version: 'core/v2' });
  assert.equal(mutatorOf('plain'), undefined);
  assert.equal(mutatorOf('lost'), undefined);
  assert.match(warned('handlers/lost/mutator')[0]!, /^mutator nowhere is not defined/);
});

test('mutators keep their command with whole-second timeouts, sorted by name', () => {
  const { settings, ctx, warned } = contextFor({ mutators: { zed: { command: 'z', timeout: 1.5 }, abe: { command: 'a' } } });
  const resources = emitMutators(settings, ctx);
  assert.deepEqual(
    resources.map((r) => [r.metadata.name, r.spec.command, r.spec.timeout]),
    [
      ['abe', 'a', 0],
      ['zed', 'z', 2],
    ],
  );
  assert.match(warned('mutators/zed/timeout')[0]!, /emitted as 2$/);
  assert.deepEqual(ctx.became.get('mutators/abe'), ['Mutator/abe']);
});
