import type { Settings } from '../config/index.js';
import { substituteTokens } from '../tokens/index.js';
import { resource, LEGACY_ANNOTATION, type CompileContext, type Resource } from './model.js';
import { templateDeep } from './tokens.js';
import { attributesToExpressions, entityPath } from './expressions.js';
import { resolveHandlers } from '../legacy/index.js';
import { translateCron } from './cron-translation.js';
import { windowsExpression, windowsToSubdues } from './time-windows.js';
import { isSecretPath, redactDeep } from './secrets.js';
import { v2SecretsOf } from '../config/index.js';
import { escapeTemplateText } from './go-template.js';
import { atLeast, seconds, NAME } from './sensu-rules.js';
import { runtimeAssetsOf } from './assets.js';
import { metricTagList } from '../metrics/index.js';
import { configuredChecks } from '../config/index.js';
import type { Json } from '../json.js';

// Fields each mapped by hand below; the rest are kept in the legacy-attributes annotation, with a warning.
const MAPPED = new Set([
  'command',
  'subscribers',
  'standalone',
  'publish',
  'interval',
  'cron',
  'handlers',
  'handler',
  'source',
  'ttl',
  'timeout',
  'stdin',
  'low_flap_threshold',
  'high_flap_threshold',
  'proxy_requests',
  'subdue',
  'hooks',
  'output_metric_format',
  'output_metric_handlers',
  'occurrences',
  'refresh',
  'aggregate',
  'aggregates',
  'type',
  'name',
  'extension',
  'ttl_status',
  'auto_resolve',
  'force_resolve',
  'handle',
  'truncate_output',
  'truncate_output_length',
  'secrets',
  'output_metric_tags',
  'runtime_assets',
]);
// Attributes with no v2 equivalent, with the reason given in the warning.
const NO_EQUIVALENT: Record<string, string> = {
  aggregate: 'v2 has no aggregates: kept as an annotation (a pipeline or an aggregate check can consume it)',
  aggregates: 'v2 has no aggregates: kept as an annotation',
  ttl_status: 'v2 TTL events are always status 1',
  force_resolve: 'v2 has no force_resolve on results',
  truncate_output: 'v2 truncates with max_output_size (bytes), not by lines',
  truncate_output_length: 'v2 truncates with max_output_size (bytes), not by lines',
  extension: 'check extensions do not exist in v2',
};
const HOOK_TYPES: Record<string, string> = { ok: 'ok', warning: 'warning', critical: 'critical', unknown: 'unknown', 'non-zero': 'non-zero' };
/** Annotations the emitted incident filter reads, so events are handled when legacy handled them. */
export const TYPE_ANNOTATION = 'checkbridge.io/type';
export const AUTO_RESOLVE_ANNOTATION = 'checkbridge.io/auto-resolve';
// Placeholder interval of an unpublished check (Sensu Go requires one; it never schedules it).
const UNPUBLISHED_INTERVAL = 60;

/** Handler names → pipeline references (one per non-set handler, sets expanded two levels) and names left as handlers. */
function routeHandlers(settings: Settings, names: readonly string[]): { pipelines: Json[]; handlers: string[] } {
  const resolved = resolveHandlers(settings, names);
  const pipelines = new Set(resolved.handlers.filter((h) => h.type !== 'transport' && h.type !== 'extension').map((h) => h.name));
  // Built-in and unknown names stay handler names; transport handlers and refused sets are reported elsewhere.
  const handlers = new Set([
    ...resolved.handlers.filter((h) => h.type === 'extension').map((h) => h.name),
    ...resolved.errors.filter((e) => e.message === 'unknown handler').map((e) => e.name),
  ]);
  return { pipelines: [...pipelines].sort().map((name) => ({ name, type: 'Pipeline', api_version: 'core/v2' })), handlers: [...handlers].sort() };
}

/** A whole number of seconds Sensu Go can decode (uint32), rounded up so nothing is cut shorter than before. */
function wholeSeconds(value: unknown, at: string[], what: string, ctx: CompileContext): number {
  const n = seconds(value);
  if (n !== value && value !== undefined)
    ctx.warn(at, `${what} ${JSON.stringify(value)} is not a whole number of seconds, which Sensu Go cannot decode: emitted as ${n}`);
  return n;
}

/** The schedule fields: cron translated to Sensu Go's parser, an interval where Sensu Go needs one; null when there is none. */
function schedule(check: Json, at: (...rest: string[]) => string[], ctx: CompileContext): { interval: number; cron?: string } | null {
  if (typeof check.cron === 'string' && check.cron !== '') {
    const translated = translateCron(check.cron);
    if ('problem' in translated) {
      ctx.warn(
        at('cron'),
        `cron ${JSON.stringify(check.cron)} has no Sensu Go equivalent (${translated.problem}): check not emitted; rewrite the schedule in five standard fields (no L, W or #) or as an interval`,
      );
      return null;
    }
    for (const note of translated.notes) ctx.warn(at('cron'), `cron ${JSON.stringify(check.cron)}: ${note}`);
    if (check.interval !== undefined)
      ctx.warn(at('interval'), 'cron and interval together: legacy used the cron and ignored the interval, Sensu Go refuses both; the interval is left out');
    return { interval: 0, cron: translated.cron };
  }
  if (typeof check.interval === 'number' && check.interval >= 1) return { interval: Math.floor(check.interval) };
  ctx.warn(
    at('publish'),
    `publish false without an interval: Sensu Go requires an interval on every check; ${UNPUBLISHED_INTERVAL} is set, which never schedules an unpublished check`,
  );
  return { interval: UNPUBLISHED_INTERVAL };
}

/** proxy_entity_name: Sensu Go validates it as a name before any substitution, so a token must be resolved here. */
function proxyName(check: Json, settings: Settings, at: (...rest: string[]) => string[], ctx: CompileContext): string | undefined {
  const source = check.source as string | undefined;
  if (!source) return undefined;
  if (!source.includes(':::')) return source;
  if (check.standalone === true) {
    const { value, unmatched } = substituteTokens(source, settings.client as Json);
    if (unmatched.length === 0 && NAME.test(value)) {
      ctx.warn(at('source'), `source ${source}: the token is resolved from the client's attributes (a standalone check runs on this client only): ${value}`);
      return value;
    }
  }
  ctx.warn(
    at('source'),
    `source ${source}: Sensu Go validates proxy_entity_name as a name before substitution, so a token cannot be kept; the events are attributed to the agent that runs the check. Define one check per proxy entity (or use proxy_requests) to keep them apart`,
  );
  return undefined;
}

/** CheckConfig (and its HookConfigs) for every check. */
export function emitChecks(settings: Settings, ctx: CompileContext, clientName: string): Resource[] {
  const out: Resource[] = [];
  const raw = configuredChecks(settings) as Record<string, Json>;
  for (const name of Object.keys(raw).sort()) {
    const check = raw[name]!;
    const at = (...rest: string[]) => ['checks', name, ...rest];
    const when = schedule(check, at, ctx);
    if (!when) continue;
    const became: string[] = [];
    ctx.became.set(`checks/${name}`, became);
    const annotations: Record<string, string> = {};
    const kept: Json = {};
    for (const [key, value] of Object.entries(check)) {
      if (!MAPPED.has(key)) {
        kept[key] = value;
        ctx.warn(at(key), `custom attribute ${key}: v2 checks have no custom attributes; kept in the ${LEGACY_ANNOTATION} annotation (filters read it there)`);
      } else if (NO_EQUIVALENT[key]) {
        kept[key] = value;
        ctx.warn(at(key), `${key}: ${NO_EQUIVALENT[key]}`);
      }
    }
    if (check.type === 'metric') {
      kept.type = 'metric';
      annotations[TYPE_ANNOTATION] = 'metric';
      ctx.warn(
        at('type'),
        'type metric: every result is handled, OK ones too, as legacy did (the checkbridge-handled filter reads the checkbridge.io/type annotation)',
      );
    }
    if (check.auto_resolve === false) {
      annotations[AUTO_RESOLVE_ANNOTATION] = 'false';
      ctx.warn(
        at('auto_resolve'),
        'auto_resolve false: resolutions are not handled (the checkbridge-handled filter reads the checkbridge.io/auto-resolve annotation), but Sensu Go still records the OK status on the event, where legacy kept the old one until resolved by hand',
      );
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
    if (roundRobin && subscriptions.length !== (check.subscribers ?? []).length)
      ctx.warn(at('subscribers'), 'round_robin applies to every subscription of a v2 check; mixed round-robin and plain subscriptions were merged');
    const named = check.handlers ?? check.handler ?? 'default';
    // Legacy handlers become the pipelines emitted for them (sets expanded), so their filters keep applying.
    let { pipelines, handlers } = routeHandlers(settings, Array.isArray(named) ? named.map(String) : [String(named)]);
    if (check.handle === false) {
      ctx.warn(at('handle'), "handle false: legacy never handled this check's events; it gets no pipelines and no handlers");
      [pipelines, handlers] = [[], []];
    }
    const read = new Map<string, string>();
    const ttlFloor = Math.max(5, when.interval + 1);
    let ttl = check.ttl === undefined ? 0 : wholeSeconds(check.ttl, at('ttl'), 'ttl', ctx);
    if (ttl > 0 && ttl < ttlFloor) {
      ctx.warn(
        at('ttl'),
        `ttl ${ttl}: Sensu Go requires a ttl above the interval and at least 5 s; emitted as ${ttlFloor}, so a stale result is reported up to ${ttlFloor - ttl} s later than before`,
      );
      ttl = ttlFloor;
    }
    const spec: Json = {
      command: templateDeep(check.command ?? '', read),
      subscriptions: [...new Set(subscriptions)].sort(),
      publish: check.publish !== false,
      interval: when.interval,
      ...(when.cron ? { cron: when.cron } : {}),
      handlers,
      round_robin: roundRobin,
      ttl,
      timeout: check.timeout === undefined ? 0 : wholeSeconds(check.timeout, at('timeout'), 'timeout', ctx),
      stdin: check.stdin === true,
      low_flap_threshold: check.low_flap_threshold ?? 0,
      high_flap_threshold: check.high_flap_threshold ?? 0,
      subdue: null,
      output_metric_format: check.output_metric_format ?? '',
      output_metric_handlers: check.output_metric_handlers ?? null,
      ...(check.output_metric_tags !== undefined ? { output_metric_tags: metricTagList(check.output_metric_tags) } : {}),
      runtime_assets: runtimeAssetsOf(check),
      check_hooks: null,
      env_vars: null,
      secrets: v2SecretsOf(check),
      pipelines,
    };
    const proxy = proxyName(check, settings, at, ctx);
    if (proxy) spec.proxy_entity_name = proxy;
    if (check.subdue) subdue(name, check.subdue, spec, pipelines, at, ctx);
    if (check.proxy_requests) {
      const proxyRequests = check.proxy_requests as Json;
      const { expressions, unmapped } = attributesToExpressions(proxyRequests.client_attributes ?? {}, entityPath);
      for (const u of unmapped)
        ctx.warn(at('proxy_requests', 'client_attributes', ...u.segments), `${u.reason}: left out, so more entities match than in legacy`);
      spec.proxy_requests = { entity_attributes: expressions, splay: proxyRequests.splay === true, splay_coverage: proxyRequests.splay_coverage ?? 90 };
    }
    if (check.hooks) {
      const hooks: Json[] = [];
      for (const [status, hook] of Object.entries(check.hooks as Record<string, Json>)) {
        const hookName = `${name}-${status}`;
        const timeout = hook.timeout === undefined ? 60 : wholeSeconds(hook.timeout, at('hooks', status, 'timeout'), 'hook timeout', ctx);
        if (v2SecretsOf(hook)) ctx.warn(at('hooks', status, 'secrets'), 'Sensu Go hooks take no secrets: not emitted, so the hook runs without them');
        out.push(
          resource('HookConfig', hookName, ctx.namespace, {
            command: templateDeep(hook.command ?? '', read),
            timeout,
            stdin: hook.stdin === true,
            runtime_assets: runtimeAssetsOf(hook),
          }),
        );
        became.push(`HookConfig/${hookName}`);
        hooks.push({ [HOOK_TYPES[status] ?? status]: [hookName] });
      }
      spec.check_hooks = hooks;
    }
    if (check.occurrences !== undefined || check.refresh !== undefined) {
      annotations['fatigue_check/occurrences'] = String(check.occurrences ?? 1);
      annotations['fatigue_check/interval'] = String(check.refresh ?? 1800);
    }
    for (const [label, path] of read) {
      ctx.labelsRead.set(label, path);
      if (isSecretPath(path, ctx.secretKeys))
        ctx.warn(
          at('command'),
          `the command reads the secret attribute ${path}: its label is not emitted, so the check fails with an unmatched token until the agent supplies it (agent labels, env_vars or Sensu Go secrets)`,
        );
    }
    if (read.size > 0) {
      ctx.labelReport[name] = [...read.keys()].sort();
      annotations['checkbridge.io/entity-labels'] = ctx.labelReport[name]!.join(',');
    }
    if (Object.keys(kept).length > 0) annotations[LEGACY_ANNOTATION] = JSON.stringify(redactDeep(kept, ctx.secretKeys));
    // The agent renders every string of the check, annotations included.
    for (const key of Object.keys(annotations)) annotations[key] = escapeTemplateText(annotations[key]!);
    out.push(resource('CheckConfig', name, ctx.namespace, spec, annotations));
    became.unshift(`CheckConfig/${name}`);
  }
  return out;
}

/** Quiet hours: `subdues` where the target has them (6.7+), else a deny filter in each pipeline the check uses. */
function subdue(name: string, windows: Json, spec: Json, pipelines: Json[], at: (...rest: string[]) => string[], ctx: CompileContext): void {
  if (atLeast(ctx.target, 6, 7)) {
    const result = windowsToSubdues(windows, ctx.localOffsetMinutes);
    if ('problem' in result) return void ctx.warn(at('subdue'), `subdue not translated (${result.problem}): the check runs through these windows`);
    spec.subdues = result.subdues;
    const offset = result.usedLocal
      ? ` Times without a zone use UTC offset ${ctx.localOffsetMinutes} min (the zone compile ran in; set TZ to the legacy server's zone when compiling); a fixed offset does not follow daylight saving.`
      : '';
    ctx.warn(
      at('subdue'),
      `subdue → subdues (Sensu Go 6.7 and later): Sensu Go keeps running the check and suppresses handling in the windows, where legacy did not run it.${offset}`,
    );
    ctx.differences.add('Subdued checks (target 6.7+): Sensu Go runs them during their windows and only suppresses handling; legacy did not run them.');
    return;
  }
  const result = windowsExpression(windows);
  if ('problem' in result) return void ctx.warn(at('subdue'), `subdue not translated (${result.problem}): the check runs and is handled through these windows`);
  const filter = `checkbridge-subdue-${name}`;
  ctx.checkFilters.set(
    filter,
    resource('EventFilter', filter, ctx.namespace, {
      action: 'deny',
      expressions: [`event.check.name == ${JSON.stringify(name)} && ${result.expression}`],
      runtime_assets: null,
    }),
  );
  for (const pipeline of pipelines) ctx.pipelineFilters.set(pipeline.name, [...(ctx.pipelineFilters.get(pipeline.name) ?? []), filter]);
  ctx.became.get(`checks/${name}`)!.push(`EventFilter/${filter}`);
  ctx.warn(
    at('subdue'),
    `subdue → EventFilter ${filter} (deny during the windows, in the backend's local time) in the check's pipelines, because Sensu Go before 6.7 ignores subdue: the check still runs in the windows, its events are not handled`,
  );
  ctx.differences.add('Subdued checks (targets before 6.7): they run during their windows and a deny filter stops their handling; legacy did not run them.');
}
