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
import { atLeast, seconds } from './sensu-rules.js';
import { isSensuName } from '../rules/index.js';
import { runtimeAssetsOf } from './assets.js';
import { metricTagList } from '../metrics/index.js';
import { configuredChecks } from '../config/index.js';
import type { Json } from '../json.js';
import { keepUnmapped } from './check-attributes.js';

export { TYPE_ANNOTATION, AUTO_RESOLVE_ANNOTATION } from './check-attributes.js';

const HOOK_TYPES: Record<string, string> = { ok: 'ok', warning: 'warning', critical: 'critical', unknown: 'unknown', 'non-zero': 'non-zero' };
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
    if (unmatched.length === 0 && isSensuName(value)) {
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

type At = (...rest: string[]) => string[];

/** Subscriptions without their roundrobin: prefix, since v2 sets round-robin once per check. */
function subscriptionsOf(check: Json, clientName: string, at: At, ctx: CompileContext): { subscriptions: string[]; roundRobin: boolean } {
  const subscriptions: string[] = [];
  let roundRobin = 0;
  for (const s of (check.subscribers ?? []) as string[]) {
    if (s.startsWith('roundrobin:')) {
      roundRobin++;
      subscriptions.push(s.slice('roundrobin:'.length));
    } else subscriptions.push(s);
  }
  // A standalone check ran on the local client: in v2 it is sent to that entity's own subscription.
  if (check.standalone === true) subscriptions.push(`entity:${clientName}`);
  if (roundRobin > 0 && subscriptions.length !== roundRobin)
    ctx.warn(at('subscribers'), 'round_robin applies to every subscription of a v2 check; mixed round-robin and plain subscriptions were merged');
  return { subscriptions, roundRobin: roundRobin > 0 };
}

/** Pipelines and handlers of a check, none when legacy never handled its events. */
function handlingOf(check: Json, settings: Settings, at: At, ctx: CompileContext): { pipelines: Json[]; handlers: string[] } {
  const named = check.handlers ?? check.handler ?? 'default';
  // Legacy handlers become the pipelines emitted for them (sets expanded), so their filters keep applying.
  const routed = routeHandlers(settings, Array.isArray(named) ? named.map(String) : [String(named)]);
  if (check.handle !== false) return routed;
  ctx.warn(at('handle'), "handle false: legacy never handled this check's events; it gets no pipelines and no handlers");
  return { pipelines: [], handlers: [] };
}

/** The ttl raised to what Sensu Go accepts, so the check is not refused. */
function ttlOf(check: Json, interval: number, at: At, ctx: CompileContext): number {
  const ttlFloor = Math.max(5, interval + 1);
  let ttl = check.ttl === undefined ? 0 : wholeSeconds(check.ttl, at('ttl'), 'ttl', ctx);
  if (ttl > 0 && ttl < ttlFloor) {
    ctx.warn(
      at('ttl'),
      `ttl ${ttl}: Sensu Go requires a ttl above the interval and at least 5 s; emitted as ${ttlFloor}, so a stale result is reported up to ${ttlFloor - ttl} s later than before`,
    );
    ttl = ttlFloor;
  }
  return ttl;
}

/** proxy_requests with client attributes as entity expressions; unmappable ones are dropped with a warning. */
function proxyRequestsOf(proxyRequests: Json, at: At, ctx: CompileContext): Json {
  const { expressions, unmapped } = attributesToExpressions(proxyRequests.client_attributes ?? {}, entityPath);
  for (const u of unmapped) ctx.warn(at('proxy_requests', 'client_attributes', ...u.segments), `${u.reason}: left out, so more entities match than in legacy`);
  return { entity_attributes: expressions, splay: proxyRequests.splay === true, splay_coverage: proxyRequests.splay_coverage ?? 90 };
}

/** HookConfig per legacy hook (pushed to out), and the check_hooks that reference them. */
function emitHooks(name: string, check: Json, read: Map<string, string>, became: string[], out: Resource[], at: At, ctx: CompileContext): Json[] {
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
  return hooks;
}

/** Record the entity labels the command reads, so the agent's entity can be checked for them. */
function recordLabels(name: string, read: Map<string, string>, annotations: Record<string, string>, at: At, ctx: CompileContext): void {
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
}

/** CheckConfig (and its HookConfigs) for every check. */
export function emitChecks(settings: Settings, ctx: CompileContext, clientName: string): Resource[] {
  const out: Resource[] = [];
  const raw = configuredChecks(settings) as Record<string, Json>;
  for (const name of Object.keys(raw).sort()) emitCheck(name, raw[name]!, settings, ctx, clientName, out);
  return out;
}

/** One check's CheckConfig and HookConfigs, pushed to out; nothing when its schedule has no Sensu Go equivalent. */
function emitCheck(name: string, check: Json, settings: Settings, ctx: CompileContext, clientName: string, out: Resource[]): void {
  const at = (...rest: string[]) => ['checks', name, ...rest];
  const when = schedule(check, at, ctx);
  if (!when) return;
  const became: string[] = [];
  ctx.became.set(`checks/${name}`, became);
  const { kept, annotations } = keepUnmapped(check, at, ctx);
  const { subscriptions, roundRobin } = subscriptionsOf(check, clientName, at, ctx);
  const { pipelines, handlers } = handlingOf(check, settings, at, ctx);
  const read = new Map<string, string>();
  const ttl = ttlOf(check, when.interval, at, ctx);
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
  if (check.proxy_requests) spec.proxy_requests = proxyRequestsOf(check.proxy_requests as Json, at, ctx);
  if (check.hooks) spec.check_hooks = emitHooks(name, check, read, became, out, at, ctx);
  if (check.occurrences !== undefined || check.refresh !== undefined) {
    annotations['fatigue_check/occurrences'] = String(check.occurrences ?? 1);
    annotations['fatigue_check/interval'] = String(check.refresh ?? 1800);
  }
  recordLabels(name, read, annotations, at, ctx);
  if (Object.keys(kept).length > 0) annotations[LEGACY_ANNOTATION] = JSON.stringify(redactDeep(kept, ctx.secretKeys));
  // The agent renders every string of the check, annotations included.
  for (const key of Object.keys(annotations)) annotations[key] = escapeTemplateText(annotations[key]!);
  out.push(resource('CheckConfig', name, ctx.namespace, spec, annotations));
  became.unshift(`CheckConfig/${name}`);
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
