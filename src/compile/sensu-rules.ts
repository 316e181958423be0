import type { Resource, SensuGoVersion } from './model.js';
import { goCronProblem } from '../time/index.js';
import { goTemplateProblem } from './go-template.js';
import { es5ExpressionProblem } from './js-dialect.js';
import type { Json } from '../json.js';

/** Sensu Go's NameRegex (api/core/v2/validators.go): ASCII word characters, dots and dashes. */
export const NAME = /^[A-Za-z0-9_.-]+$/;
const METRIC_FORMATS = ['nagios_perfdata', 'graphite_plaintext', 'opentsdb_line', 'influxdb_line', 'prometheus_text'];
const HANDLER_TYPES = ['pipe', 'tcp', 'udp', 'set', 'grpc'];
const REPEATS = new Set([
  'annually',
  'monthly',
  'weekly',
  'weekdays',
  'weekends',
  'daily',
  'sundays',
  'mondays',
  'tuesdays',
  'wednesdays',
  'thursdays',
  'fridays',
  'saturdays',
]);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `6`, `6.x`, `6.7`, `6.7.1` → a target; null when it is not a Sensu Go 6 version. */
export function parseTarget(text: string): SensuGoVersion | null {
  const m = /^6(?:\.(x|\d+)(?:\.\d+)?)?$/.exec(text.trim());
  if (!m) return null;
  return { major: 6, minor: m[1] === undefined || m[1] === 'x' ? Infinity : Number(m[1]) };
}

export const atLeast = (target: SensuGoVersion, major: number, minor: number) => target.major > major || (target.major === major && target.minor >= minor);

/** Seconds as Sensu Go decodes them (uint32): fractions round up, negatives become 0. */
export function seconds(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : 0;
  return Math.max(0, Math.ceil(n));
}

const isUint32 = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* strings(v);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) yield* strings(v);
}

// The agent renders every string of a check or hook request as a template before running it.
function templatesProblem(r: Resource): string | null {
  for (const text of strings([r.spec, r.metadata.annotations ?? {}, r.metadata.labels ?? {}])) {
    const problem = goTemplateProblem(text);
    if (problem) return `template ${JSON.stringify(text.length > 80 ? text.slice(0, 77) + '...' : text)}: ${problem}`;
  }
  return null;
}

function refProblem(ref: Json | undefined, type: string, what: string): string | null {
  if (!ref || typeof ref.name !== 'string' || !NAME.test(ref.name)) return `${what} reference needs a valid name`;
  if (ref.type !== type) return `${what} reference must be of type ${type}`;
  return null;
}

function checkProblem(spec: Json, target: SensuGoVersion): string | null {
  if (spec.publish) {
    if (spec.cron) {
      if (spec.interval > 0) return 'must only specify either an interval or a cron schedule';
    } else if (!(spec.interval >= 1)) return 'check interval must be greater than or equal to 1';
  }
  if (spec.cron) {
    const problem = goCronProblem(spec.cron);
    if (problem) return `check cron string is invalid: ${problem}`;
  } else if (spec.interval === 0) return 'check interval must be greater than 0 or a valid cron schedule must be provided';
  for (const field of ['interval', 'timeout', 'low_flap_threshold', 'high_flap_threshold'])
    if (!isUint32(spec[field])) return `${field} must be a whole number of seconds`;
  if (!Number.isInteger(spec.ttl)) return 'ttl must be an integer';
  if (spec.ttl > 0 && spec.ttl <= spec.interval) return 'ttl must be greater than check interval';
  if (spec.ttl > 0 && spec.ttl < 5) return 'minimum ttl is 5 seconds';
  if ((spec.subscriptions ?? []).some((s: unknown) => typeof s !== 'string' || s === '')) return 'subscriptions cannot be empty strings';
  if (spec.proxy_entity_name && !NAME.test(spec.proxy_entity_name)) return 'proxy entity name cannot contain spaces or special characters';
  if (spec.proxy_requests) {
    const { splay, splay_coverage: coverage, entity_attributes: attributes } = spec.proxy_requests;
    if (!isUint32(coverage) || coverage > 100) return 'proxy request splay coverage must be between 0 and 100';
    if (splay && coverage === 0) return 'proxy request splay coverage must be greater than 0 if splay is enabled';
    for (const expression of attributes ?? []) {
      const problem = es5ExpressionProblem(expression);
      if (problem) return `entity_attributes ${JSON.stringify(expression)}: ${problem}`;
    }
  }
  if (spec.output_metric_format && !METRIC_FORMATS.includes(spec.output_metric_format)) return 'output metric format is not valid';
  if (spec.low_flap_threshold && spec.high_flap_threshold && spec.low_flap_threshold >= spec.high_flap_threshold) return 'invalid flap thresholds';
  if (spec.subdue) return 'subdue is dropped by sensuctl and ignored by the scheduler';
  if (spec.subdues !== undefined) {
    if (!atLeast(target, 6, 7)) return 'subdues needs Sensu Go 6.7 or later';
    for (const window of spec.subdues as Json[]) {
      if (!RFC3339.test(window.begin) || !RFC3339.test(window.end)) return 'subdues begin and end must be RFC 3339 times';
      if (Date.parse(window.end) < Date.parse(window.begin)) return 'end time must be after begin time';
      for (const repeat of window.repeat ?? []) if (!REPEATS.has(repeat)) return `invalid repeat period: ${repeat}`;
    }
  }
  for (const ref of spec.pipelines ?? []) {
    const problem = refProblem(ref, 'Pipeline', 'pipeline');
    if (problem) return problem;
  }
  return null;
}

function specProblem(r: Resource, target: SensuGoVersion): string | null {
  const spec = r.spec;
  switch (r.type) {
    case 'CheckConfig':
      return checkProblem(spec, target) ?? templatesProblem(r);
    case 'HookConfig':
      if (!spec.command) return 'command cannot be empty';
      if (!isUint32(spec.timeout)) return 'timeout must be a whole number of seconds';
      return templatesProblem(r);
    case 'EventFilter': {
      if (spec.action !== 'allow' && spec.action !== 'deny') return `action '${spec.action}' is not valid`;
      if (!Array.isArray(spec.expressions) || spec.expressions.length === 0) return 'filter must have one or more expressions';
      if (spec.when) return 'when is dropped by sensuctl and applied differently from legacy';
      for (const expression of spec.expressions) {
        const problem = es5ExpressionProblem(expression);
        if (problem) return `syntax error in expression ${JSON.stringify(expression.length > 80 ? expression.slice(0, 77) + '...' : expression)}: ${problem}`;
      }
      return null;
    }
    case 'Handler':
      if (!HANDLER_TYPES.includes(spec.type)) return `unknown handler type ${spec.type}`;
      if (spec.type === 'pipe' && !spec.command) return 'missing command';
      if ((spec.type === 'tcp' || spec.type === 'udp') && (!spec.socket?.host || !isUint32(spec.socket?.port) || spec.socket.port === 0))
        return 'tcp and udp handlers need a valid socket';
      if (!isUint32(spec.timeout)) return 'timeout must be a whole number of seconds';
      return null;
    case 'Mutator':
      if (!spec.command) return 'missing command';
      return isUint32(spec.timeout) ? null : 'timeout must be a whole number of seconds';
    case 'Pipeline':
      for (const workflow of spec.workflows ?? []) {
        if (typeof workflow.name !== 'string' || !NAME.test(workflow.name)) return 'workflow name cannot contain spaces or special characters';
        const problem =
          refProblem(workflow.handler, 'Handler', 'handler') ??
          (workflow.filters ?? []).map((f: Json) => refProblem(f, 'EventFilter', 'filter')).find(Boolean) ??
          (workflow.mutator ? refProblem(workflow.mutator, 'Mutator', 'mutator') : null);
        if (problem) return problem;
      }
      return null;
    case 'Entity':
      if (!spec.entity_class) return 'entity class must not be empty';
      if ((spec.subscriptions ?? []).some((s: unknown) => typeof s !== 'string' || s === '')) return 'subscriptions cannot be empty strings';
      return null;
    case 'Silenced':
      return spec.subscription || spec.check ? null : 'must provide check or subscription';
    default:
      return null;
  }
}

/** Why Sensu Go (version `target`) would refuse this document, or null when it accepts it. */
export function sensuProblem(r: Resource, target: SensuGoVersion): string | null {
  const name = r.metadata.name;
  if (r.type !== 'Silenced' && (typeof name !== 'string' || !NAME.test(name)))
    return `name ${JSON.stringify(name)} cannot contain spaces or special characters`;
  if (r.type !== 'Namespace' && !r.metadata.namespace) return 'namespace must be set';
  for (const value of Object.values(r.metadata.labels ?? {})) if (typeof value !== 'string') return 'label values must be strings';
  return specProblem(r, target);
}
