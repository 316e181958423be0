import type { Settings } from '../config/index.js';
import { resource, LEGACY_ANNOTATION, type CompileContext, type Resource } from './model.js';
import { attributesToExpressions, filterPath } from './expressions.js';

type Json = Record<string, any>;
const ref = (type: string, name: string) => ({ name, type, api_version: 'core/v2' });
const ACTIONS: Record<string, string> = { resolve: 'event.is_resolution', create: '!event.is_resolution && event.check.state != "flapping"', flapping: 'event.check.state == "flapping"' };

/** EventFilter per legacy filter: attributes as JavaScript expressions, `negate` as deny, `when` as is. */
export function emitFilters(settings: Settings, ctx: CompileContext): Resource[] {
  return Object.keys(settings.filters).sort().map((name) => {
    const filter = settings.filters[name] as Json;
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
    for (const u of unmapped) ctx.warn(['filters', name, 'attributes', ...u.segments], u.reason);
    const annotations: Record<string, string> = unmapped.length ? { [LEGACY_ANNOTATION]: JSON.stringify({ attributes: filter.attributes }) } : {};
    return resource('EventFilter', name, ctx.namespace, { action: filter.negate === true ? 'deny' : 'allow', expressions, runtime_assets: null, ...(filter.when ? { when: filter.when } : {}) }, annotations);
  });
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

/** Handler per legacy handler; a Pipeline wherever a handler uses filters, severities, flapping, silencing or a mutator. */
export function emitHandlers(settings: Settings, ctx: CompileContext): Resource[] {
  const out: Resource[] = [];
  const builtins = new Map<string, Resource>();
  for (const name of Object.keys(settings.handlers).sort()) {
    const handler = settings.handlers[name] as Json;
    const at = (...rest: string[]) => ['handlers', name, ...rest];
    const type = String(handler.type ?? 'pipe');
    if (type === 'transport' || type === 'extension') {
      ctx.warn(at('type'), `handler type ${type} has no v2 equivalent: not emitted`);
      continue;
    }
    const spec: Json = { type, timeout: handler.timeout ?? 0, env_vars: null, runtime_assets: null, secrets: null, filters: null, handlers: null };
    const known = new Set(['type', 'command', 'timeout', 'socket', 'handlers', 'filters', 'filter', 'severities', 'handle_silenced', 'handle_flapping', 'mutator']);
    const kept = Object.fromEntries(Object.entries(handler).filter(([k]) => !known.has(k)));
    for (const k of Object.keys(kept)) ctx.warn(at(k), `handler attribute ${k} has no v2 equivalent: kept in the ${LEGACY_ANNOTATION} annotation`);
    if (type === 'pipe') spec.command = handler.command ?? '';
    if (type === 'tcp' || type === 'udp') spec.socket = { host: handler.socket?.host ?? '127.0.0.1', port: handler.socket?.port ?? 0 };
    if (type === 'set') spec.handlers = [...((handler.handlers ?? []) as string[])];
    const filters: { name: string; type: string }[] = [];
    const listed = [...((handler.filters ?? []) as string[]), ...(handler.filter ? [handler.filter as string] : [])];
    for (const filter of listed) {
      if (settings.filters[filter]) filters.push({ name: filter, type: 'EventFilter' });
      else if (filter === 'occurrences') {
        if (!builtins.has(filter)) builtins.set(filter, builtinFilter(filter, ctx)!);
        filters.push({ name: filter, type: 'EventFilter' });
      } else ctx.warn(at('filters'), `filter ${filter} is not defined and has no v2 equivalent: left out`);
    }
    if (handler.severities) {
      const statuses = ((handler.severities ?? []) as string[]).map((s) => ({ ok: 0, warning: 1, critical: 2 } as Record<string, number>)[s]).filter((s) => s !== undefined);
      const fname = `${name}-severities`;
      const unknown = (handler.severities as string[]).includes('unknown');
      const match = [...statuses.map((s) => `event.check.status == ${s}`), ...(unknown ? ['event.check.status > 2'] : [])].join(' || ') || 'false';
      out.push(resource('EventFilter', fname, ctx.namespace, { action: 'allow', expressions: [`(${match}) || (event.is_resolution && event.check.history.some(function(h) { return ${match.replace(/event\.check\.status/g, 'h.status')}; }))`], runtime_assets: null }));
      filters.push({ name: fname, type: 'EventFilter' });
    }
    if (handler.handle_silenced !== true) filters.push({ name: 'not_silenced', type: 'EventFilter' });
    if (handler.handle_flapping !== true) {
      const fname = 'not-flapping';
      if (!builtins.has(fname)) builtins.set(fname, resource('EventFilter', fname, ctx.namespace, { action: 'deny', expressions: ['event.check.state == "flapping"'], runtime_assets: null }));
      filters.push({ name: fname, type: 'EventFilter' });
    }
    const mutator = handler.mutator as string | undefined;
    if (mutator && !settings.mutators[mutator] && mutator !== 'json' && mutator !== 'only_check_output') ctx.warn(at('mutator'), `mutator ${mutator} is not defined: left out`);
    out.push(resource('Handler', name, ctx.namespace, spec, Object.keys(kept).length ? { [LEGACY_ANNOTATION]: JSON.stringify(kept) } : {}));
    if (type !== 'set') {
      const workflow: Json = { name, filters: filters.map((f) => ref(f.type, f.name)), handler: ref('Handler', name) };
      if (mutator && mutator !== 'json') workflow.mutator = ref('Mutator', mutator);
      out.push(resource('Pipeline', name, ctx.namespace, { workflows: [workflow] }));
    }
  }
  return [...out, ...builtins.values()];
}

export function emitMutators(settings: Settings, ctx: CompileContext): Resource[] {
  return Object.keys(settings.mutators).sort().map((name) => {
    const mutator = settings.mutators[name] as Json;
    return resource('Mutator', name, ctx.namespace, { command: mutator.command ?? '', timeout: mutator.timeout ?? 0, env_vars: null, runtime_assets: null, secrets: null });
  });
}
