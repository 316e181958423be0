import type { Settings } from '../config/index.js';
import { resource, LEGACY_ANNOTATION, type CompileContext, type Resource } from './model.js';
import { templateDeep } from './tokens.js';
import { attributesToExpressions, entityPath } from './expressions.js';
import { resolveHandlers } from '../handling-rules/handler-sets.js';

type Json = Record<string, any>;

// Fields each mapped by hand below; the rest are kept in the legacy-attributes annotation, with a warning.
const MAPPED = new Set([
  'command', 'subscribers', 'standalone', 'publish', 'interval', 'cron', 'handlers', 'handler', 'source', 'ttl', 'timeout', 'stdin',
  'low_flap_threshold', 'high_flap_threshold', 'proxy_requests', 'subdue', 'hooks', 'output_metric_format', 'output_metric_handlers',
  'occurrences', 'refresh', 'aggregate', 'aggregates', 'type', 'name', 'extension', 'ttl_status', 'auto_resolve', 'force_resolve', 'handle',
  'truncate_output', 'truncate_output_length',
]);
// Attributes with no v2 equivalent, with the reason given in the warning.
const NO_EQUIVALENT: Record<string, string> = {
  aggregate: 'v2 has no aggregates: kept as an annotation (a pipeline or an aggregate check can consume it)',
  aggregates: 'v2 has no aggregates: kept as an annotation',
  ttl_status: 'v2 TTL events are always status 1',
  auto_resolve: 'v2 events always resolve on an OK result',
  force_resolve: 'v2 has no force_resolve on results',
  handle: 'v2 has no per-check handle switch: remove the handlers instead',
  truncate_output: 'v2 truncates with max_output_size (bytes), not by lines',
  truncate_output_length: 'v2 truncates with max_output_size (bytes), not by lines',
  extension: 'check extensions do not exist in v2',
};
const HOOK_TYPES: Record<string, string> = { ok: 'ok', warning: 'warning', critical: 'critical', unknown: 'unknown', 'non-zero': 'non-zero' };

/** Handler names → pipeline references (one per non-set handler, sets expanded two levels) and names left as handlers. */
export function routeHandlers(settings: Settings, names: readonly string[]): { pipelines: Json[]; handlers: string[] } {
  const resolved = resolveHandlers(settings, names);
  const pipelines = new Set(resolved.handlers.filter((h) => h.type !== 'transport' && h.type !== 'extension').map((h) => h.name));
  // Built-in and unknown names stay handler names; transport handlers and refused sets are reported elsewhere.
  const handlers = new Set([...resolved.handlers.filter((h) => h.type === 'extension').map((h) => h.name), ...resolved.errors.filter((e) => e.message === 'unknown handler').map((e) => e.name)]);
  return { pipelines: [...pipelines].sort().map((name) => ({ name, type: 'Pipeline', api_version: 'core/v2' })), handlers: [...handlers].sort() };
}

/** CheckConfig (and its HookConfigs) for every check. */
export function emitChecks(settings: Settings, ctx: CompileContext, clientName: string): Resource[] {
  const out: Resource[] = [];
  const raw = (settings.raw.checks ?? {}) as Record<string, Json>;
  for (const name of Object.keys(raw).sort()) {
    const check = raw[name]!;
    const at = (...rest: string[]) => ['checks', name, ...rest];
    const annotations: Record<string, string> = {};
    const kept: Json = {};
    for (const [key, value] of Object.entries(check)) {
      if (!MAPPED.has(key)) {
        kept[key] = value;
        ctx.warn(at(key), `custom attribute ${key}: v2 checks have no custom attributes; kept in the ${LEGACY_ANNOTATION} annotation`);
      } else if (NO_EQUIVALENT[key]) {
        kept[key] = value;
        ctx.warn(at(key), `${key}: ${NO_EQUIVALENT[key]}`);
      }
    }
    if (check.type === 'metric') {
      kept.type = 'metric';
      ctx.warn(at('type'), 'type metric: v2 handles every event; set output_metric_format/output_metric_handlers to route metrics');
    }
    const subscriptions: string[] = [];
    let roundRobin = false;
    for (const s of (check.subscribers ?? []) as string[]) {
      if (s.startsWith('roundrobin:')) {
        roundRobin = true;
        subscriptions.push(s.slice('roundrobin:'.length));
      } else subscriptions.push(s);
    }
    // A standalone check ran on the local client: in v2 it is sent to that entity's own subscription.
    if (check.standalone === true) subscriptions.push(`entity:${clientName}`);
    if (roundRobin && subscriptions.length !== (check.subscribers ?? []).length) ctx.warn(at('subscribers'), 'round_robin applies to every subscription of a v2 check; mixed round-robin and plain subscriptions were merged');
    const named = check.handlers ?? check.handler ?? 'default';
    // Legacy handlers become the pipelines emitted for them (sets expanded), so their filters keep applying.
    const { pipelines, handlers } = routeHandlers(settings, Array.isArray(named) ? named.map(String) : [String(named)]);
    const read = new Map<string, string>();
    const spec: Json = {
      command: templateDeep(check.command ?? '', read),
      subscriptions: [...new Set(subscriptions)].sort(),
      publish: check.publish !== false,
      interval: check.interval ?? 0,
      ...(check.cron ? { cron: check.cron } : {}),
      handlers,
      round_robin: roundRobin,
      ...(check.source ? { proxy_entity_name: templateDeep(check.source, read) } : {}),
      ttl: check.ttl ?? 0,
      timeout: check.timeout ?? 0,
      stdin: check.stdin === true,
      low_flap_threshold: check.low_flap_threshold ?? 0,
      high_flap_threshold: check.high_flap_threshold ?? 0,
      subdue: check.subdue ?? null,
      output_metric_format: check.output_metric_format ?? '',
      output_metric_handlers: check.output_metric_handlers ?? null,
      runtime_assets: null,
      check_hooks: null,
      env_vars: null,
      secrets: null,
      pipelines,
    };
    if (check.proxy_requests) {
      const proxy = check.proxy_requests as Json;
      const { expressions, unmapped } = attributesToExpressions(proxy.client_attributes ?? {}, entityPath);
      for (const u of unmapped) ctx.warn(at('proxy_requests', 'client_attributes', ...u.segments), u.reason);
      spec.proxy_requests = { entity_attributes: expressions, splay: proxy.splay === true, splay_coverage: proxy.splay_coverage ?? 90 };
    }
    if (check.hooks) {
      const hooks: Json[] = [];
      for (const [status, hook] of Object.entries(check.hooks as Record<string, Json>)) {
        const hookName = `${name}-${status}`;
        out.push(resource('HookConfig', hookName, ctx.namespace, { command: templateDeep(hook.command ?? '', read), timeout: hook.timeout ?? 60, stdin: hook.stdin === true, runtime_assets: null }));
        hooks.push({ [HOOK_TYPES[status] ?? status]: [hookName] });
      }
      spec.check_hooks = hooks;
    }
    if (check.occurrences !== undefined || check.refresh !== undefined) {
      annotations['fatigue_check/occurrences'] = String(check.occurrences ?? 1);
      annotations['fatigue_check/interval'] = String(check.refresh ?? 1800);
    }
    for (const [label, path] of read) ctx.labelsRead.set(label, path);
    if (read.size > 0) {
      ctx.labelReport[name] = [...read.keys()].sort();
      annotations['checkbridge.io/entity-labels'] = ctx.labelReport[name]!.join(',');
    }
    if (Object.keys(kept).length > 0) annotations[LEGACY_ANNOTATION] = JSON.stringify(kept);
    out.push(resource('CheckConfig', name, ctx.namespace, spec, annotations));
  }
  return out;
}
