import { runtimeAssetsOf } from './assets.js';
import type { Settings } from '../config/index.js';
import { resource, LEGACY_ANNOTATION, type CompileContext, type Resource } from './model.js';
import { attributesToExpressions, filterPath } from './expressions.js';
import { windowsExpression } from './time-windows.js';
import { redactDeep } from './secrets.js';
import { v2SecretsOf } from '../config/index.js';
import { seconds } from './sensu-rules.js';
import { AUTO_RESOLVE_ANNOTATION, TYPE_ANNOTATION } from './checks.js';
import type { Json } from '../json.js';

const ref = (type: string, name: string) => ({ name, type, api_version: 'core/v2' });
const ACTIONS: Record<string, string> = {
  resolve: 'event.is_resolution',
  create: '!event.is_resolution && event.check.state != "flapping"',
  flapping: 'event.check.state == "flapping"',
};

/** EventFilter per legacy filter, or null (with warnings) when it cannot be expressed without handling less than legacy. */
function emitFilter(name: string, filter: Json, ctx: CompileContext): Resource | null {
  const at = (...rest: string[]) => ['filters', name, ...rest];
  const { action, ...attributes } = (filter.attributes ?? {}) as Json;
  // Entity labels a filter reads must be on the entity: record them like the ones templates read.
  const pathOf = (segments: string[]) => {
    const path = filterPath(segments);
    if (path?.startsWith('event.entity.labels.')) ctx.labelsRead.set(path.slice('event.entity.labels.'.length), segments.slice(1).join('.'));
    return path;
  };
  const { expressions, unmapped } = attributesToExpressions(attributes, pathOf);
  if (action !== undefined) {
    if (ACTIONS[String(action)]) expressions.push(ACTIONS[String(action)]!);
    else unmapped.push({ segments: ['action'], reason: `unknown action ${String(action)}` });
  }
  const negate = filter.negate === true;
  for (const u of unmapped)
    ctx.warn(
      at('attributes', ...u.segments),
      negate
        ? `${u.reason}: the negated filter would deny more events than legacy without it`
        : `${u.reason}: left out, so the filter passes more events than legacy`,
    );
  // A deny filter missing a condition would drop events legacy handled; an allow filter with none has nothing to test.
  if ((negate && unmapped.length > 0) || expressions.length === 0) {
    ctx.warn(at('attributes'), `filter ${name} is not emitted and is left out of its handlers' pipelines, which therefore handle more events than legacy`);
    return null;
  }
  // Sensu Go denies when any expression of a deny filter matches; legacy negate needed all attributes: one conjunction.
  const all = expressions.length === 1 ? expressions[0]! : expressions.map((e) => `(${e})`).join(' && ');
  let spec: Json = { action: negate ? 'deny' : 'allow', expressions: negate ? [all] : expressions, runtime_assets: null };
  if (filter.when) {
    // Legacy applied the filter only inside its windows; outside, events passed.
    const windows = windowsExpression(filter.when);
    if ('problem' in windows) {
      ctx.warn(
        at('when'),
        `when not translated (${windows.problem}): the filter is not emitted and is left out of its handlers' pipelines, which therefore handle more events than legacy`,
      );
      return null;
    }
    spec = { ...spec, expressions: [negate ? `(${windows.expression}) && (${all})` : `!(${windows.expression}) || (${all})`] };
    ctx.warn(
      at('when'),
      "when → part of the expression (the filter applies inside its windows, in the backend's local time), because sensuctl drops when and Sensu Go applies it differently",
    );
  }
  const annotations: Record<string, string> = unmapped.length
    ? { [LEGACY_ANNOTATION]: JSON.stringify(redactDeep({ attributes: filter.attributes }, ctx.secretKeys)) }
    : {};
  return resource('EventFilter', name, ctx.namespace, spec, annotations);
}

/** EventFilters for the legacy filters that can be expressed. */
export function emitFilters(settings: Settings, ctx: CompileContext): Resource[] {
  const out: Resource[] = [];
  for (const name of Object.keys(settings.filters).sort()) {
    const emitted = emitFilter(name, settings.filters[name] as Json, ctx);
    ctx.became.set(`filters/${name}`, emitted ? [`EventFilter/${name}`] : []);
    if (emitted) out.push(emitted);
  }
  return out;
}

/** Legacy handled non-OK results, resolutions, flapping and every metric result; v2 handles every event. */
const HANDLED_FILTER = 'checkbridge-handled';
function handledFilter(ctx: CompileContext): Resource {
  const annotation = (key: string) => `(event.check.annotations || {})[${JSON.stringify(key)}]`;
  const expression = `event.check.status != 0 || (event.is_resolution && ${annotation(AUTO_RESOLVE_ANNOTATION)} != "false") || event.check.state == "flapping" || ${annotation(TYPE_ANNOTATION)} == "metric"`;
  return resource('EventFilter', HANDLED_FILTER, ctx.namespace, { action: 'allow', expressions: [expression], runtime_assets: null });
}

/** The built-in legacy filters a handler may list, as v2 filters reading the check's fatigue annotations. */
function builtinFilter(name: string, ctx: CompileContext): Resource | null {
  if (name === 'occurrences') {
    const n = 'parseInt((event.check.annotations || {})["fatigue_check/occurrences"] || "1", 10)';
    const refresh = 'parseInt((event.check.annotations || {})["fatigue_check/interval"] || "1800", 10)';
    const expression = `(function(n, r){ var c = Math.floor(r / (event.check.interval || 60)); if (event.is_resolution) return event.check.occurrences_watermark >= n; if (event.check.occurrences < n) return false; return event.check.occurrences == n || c == 0 || (event.check.occurrences - n) % c == 0; })(${n}, ${refresh})`;
    return resource('EventFilter', 'occurrences', ctx.namespace, { action: 'allow', expressions: [expression], runtime_assets: null });
  }
  return null;
}

type At = (...rest: string[]) => string[];
type FilterRef = { name: string; type: string };

// Handler attributes mapped to the v2 Handler or its Pipeline; the rest are kept in the legacy annotation.
const KNOWN = new Set([
  'type',
  'command',
  'timeout',
  'socket',
  'handlers',
  'filters',
  'filter',
  'severities',
  'handle_silenced',
  'handle_flapping',
  'mutator',
  'secrets',
  'runtime_assets',
]);

/** The Handler spec, and the attributes v2 has no place for (kept for the annotation). */
function handlerSpec(handler: Json, type: string, at: At, ctx: CompileContext): { spec: Json; kept: Json } {
  const timeout = seconds(handler.timeout);
  if (handler.timeout !== undefined && timeout !== handler.timeout)
    ctx.warn(at('timeout'), `timeout ${JSON.stringify(handler.timeout)} is not a whole number of seconds, which Sensu Go cannot decode: emitted as ${timeout}`);
  const spec: Json = {
    type,
    timeout,
    env_vars: null,
    runtime_assets: runtimeAssetsOf(handler),
    secrets: v2SecretsOf(handler),
    filters: null,
    handlers: null,
  };
  const kept = Object.fromEntries(Object.entries(handler).filter(([k]) => !KNOWN.has(k)));
  for (const k of Object.keys(kept))
    ctx.warn(at(k), `handler attribute ${k} has no v2 equivalent: kept in the ${LEGACY_ANNOTATION} annotation (secrets redacted)`);
  if (type === 'pipe') spec.command = handler.command ?? '';
  if (type === 'tcp' || type === 'udp') spec.socket = { host: handler.socket?.host ?? '127.0.0.1', port: handler.socket?.port ?? 0 };
  if (type === 'set') spec.handlers = [...((handler.handlers ?? []) as string[])];
  return { spec, kept };
}

/** EventFilter passing the listed severities, and resolutions of events that had one of them. */
function severitiesFilter(fname: string, severities: string[], ctx: CompileContext): Resource {
  const statuses = severities.map((s) => (({ ok: 0, warning: 1, critical: 2 }) as Record<string, number>)[s]).filter((s) => s !== undefined);
  const unknown = severities.includes('unknown');
  const match = [...statuses.map((s) => `event.check.status == ${s}`), ...(unknown ? ['event.check.status > 2'] : [])].join(' || ') || 'false';
  return resource('EventFilter', fname, ctx.namespace, {
    action: 'allow',
    expressions: [
      `(${match}) || (event.is_resolution && event.check.history.some(function(h) { return ${match.replace(/event\.check\.status/g, 'h.status')}; }))`,
    ],
    runtime_assets: null,
  });
}

/** The filters of a handler's pipeline, in legacy's order of tests; built-in filters are collected once in builtins. */
function pipelineFiltersOf(
  name: string,
  handler: Json,
  settings: Settings,
  emittedFilters: ReadonlySet<string>,
  builtins: Map<string, Resource>,
  emit: (filter: Resource) => void,
  at: At,
  ctx: CompileContext,
): FilterRef[] {
  // Legacy handled only non-OK results, resolutions, flapping and metrics: that test comes first.
  const filters: FilterRef[] = [{ name: HANDLED_FILTER, type: 'EventFilter' }];
  const listed = [...((handler.filters ?? []) as string[]), ...(handler.filter ? [handler.filter as string] : [])];
  for (const filter of listed) {
    if (emittedFilters.has(filter)) filters.push({ name: filter, type: 'EventFilter' });
    else if (settings.filters[filter]) ctx.warn(at('filters'), `filter ${filter} could not be emitted (see its warnings): left out of this pipeline`);
    else if (filter === 'occurrences') {
      if (!builtins.has(filter)) builtins.set(filter, builtinFilter(filter, ctx)!);
      filters.push({ name: filter, type: 'EventFilter' });
    } else ctx.warn(at('filters'), `filter ${filter} is not defined and has no v2 equivalent: left out`);
  }
  if (handler.severities) {
    const fname = `${name}-severities`;
    emit(severitiesFilter(fname, handler.severities as string[], ctx));
    filters.push({ name: fname, type: 'EventFilter' });
  }
  if (handler.handle_silenced !== true) filters.push({ name: 'not_silenced', type: 'EventFilter' });
  if (handler.handle_flapping !== true) {
    const fname = 'not-flapping';
    if (!builtins.has(fname))
      builtins.set(
        fname,
        resource('EventFilter', fname, ctx.namespace, { action: 'deny', expressions: ['event.check.state == "flapping"'], runtime_assets: null }),
      );
    filters.push({ name: fname, type: 'EventFilter' });
  }
  for (const filter of ctx.pipelineFilters.get(name) ?? []) filters.push({ name: filter, type: 'EventFilter' });
  return filters;
}

/** The handler's mutator, or undefined when it names none that exists (the event then goes as JSON). */
function mutatorOf(handler: Json, settings: Settings, at: At, ctx: CompileContext): string | undefined {
  const mutator = handler.mutator as string | undefined;
  if (mutator && !settings.mutators[mutator] && mutator !== 'json' && mutator !== 'only_check_output') {
    ctx.warn(at('mutator'), `mutator ${mutator} is not defined: not referenced, the handler gets the event as JSON (legacy failed such events)`);
    return undefined;
  }
  return mutator;
}

/** Handler per legacy handler; a Pipeline wherever a handler uses filters, severities, flapping, silencing or a mutator. */
export function emitHandlers(settings: Settings, ctx: CompileContext, emittedFilters: ReadonlySet<string>): Resource[] {
  const out: Resource[] = [];
  const builtins = new Map<string, Resource>();
  const handled = handledFilter(ctx);
  for (const name of Object.keys(settings.handlers).sort()) {
    const handler = settings.handlers[name] as Json;
    const at = (...rest: string[]) => ['handlers', name, ...rest];
    const type = String(handler.type ?? 'pipe');
    const became: string[] = [];
    ctx.became.set(`handlers/${name}`, became);
    if (type === 'transport' || type === 'extension') {
      ctx.warn(at('type'), `handler type ${type} has no v2 equivalent: not emitted`);
      continue;
    }
    const { spec, kept } = handlerSpec(handler, type, at, ctx);
    const emit = (filter: Resource) => {
      out.push(filter);
      became.push(`EventFilter/${filter.metadata.name}`);
    };
    const filters = pipelineFiltersOf(name, handler, settings, emittedFilters, builtins, emit, at, ctx);
    const mutator = mutatorOf(handler, settings, at, ctx);
    out.push(
      resource('Handler', name, ctx.namespace, spec, Object.keys(kept).length ? { [LEGACY_ANNOTATION]: JSON.stringify(redactDeep(kept, ctx.secretKeys)) } : {}),
    );
    became.unshift(`Handler/${name}`);
    if (type !== 'set') {
      const workflow: Json = { name, filters: filters.map((f) => ref(f.type, f.name)), handler: ref('Handler', name) };
      if (mutator && mutator !== 'json') workflow.mutator = ref('Mutator', mutator);
      out.push(resource('Pipeline', name, ctx.namespace, { workflows: [workflow] }));
      became.push(`Pipeline/${name}`);
      builtins.set(HANDLED_FILTER, handled);
    }
  }
  return [...out, ...builtins.values()];
}

export function emitMutators(settings: Settings, ctx: CompileContext): Resource[] {
  return Object.keys(settings.mutators)
    .sort()
    .map((name) => {
      const mutator = settings.mutators[name] as Json;
      const timeout = seconds(mutator.timeout);
      if (mutator.timeout !== undefined && timeout !== mutator.timeout)
        ctx.warn(
          ['mutators', name, 'timeout'],
          `timeout ${JSON.stringify(mutator.timeout)} is not a whole number of seconds, which Sensu Go cannot decode: emitted as ${timeout}`,
        );
      ctx.became.set(`mutators/${name}`, [`Mutator/${name}`]);
      return resource('Mutator', name, ctx.namespace, {
        command: mutator.command ?? '',
        timeout,
        env_vars: null,
        runtime_assets: runtimeAssetsOf(mutator),
        secrets: v2SecretsOf(mutator),
      });
    });
}
