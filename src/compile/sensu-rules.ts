import type { Resource, SensuGoVersion } from './model.js';
import { goTemplateProblem } from './go-template.js';
import { es5ExpressionProblem } from './js-dialect.js';
import { SUBDUE_REPEATS, isOneOf, kindProblem, sensuNameProblem } from '../rules/index.js';
import type { Json } from '../json.js';

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

function pipelineRefsProblem(refs: Json[]): string | null {
  for (let at = 0; at < refs.length; at++) {
    const ref = refs[at] ?? {};
    const badName = sensuNameProblem(ref.name, `pipelines[${at}].name`);
    if (badName) return badName;
    if (ref.type !== 'Pipeline' || ref.api_version !== 'core/v2')
      return `pipelines[${at}]: resource type not capable of acting as a pipeline: ${ref.api_version}.${ref.type}`;
  }
  return null;
}

// The types of what compile writes, checked as Sensu Go decodes them (a refused field aborts a whole `sensuctl create -f`).
function typesProblem(r: Resource): string | null {
  const spec = r.spec;
  const uint32Fields: Record<string, string[]> = {
    CheckConfig: ['interval', 'timeout', 'low_flap_threshold', 'high_flap_threshold'],
    HookConfig: ['timeout'],
    Handler: ['timeout'],
    Mutator: ['timeout'],
  };
  for (const field of uint32Fields[r.type] ?? []) if (!isUint32(spec[field])) return `${field} must be a whole number of seconds`;
  if (r.type === 'CheckConfig' && !Number.isInteger(spec.ttl)) return 'ttl must be an integer';
  if (r.type === 'CheckConfig' && spec.proxy_requests && !isUint32(spec.proxy_requests.splay_coverage))
    return 'proxy_requests.splay_coverage must be between 0 and 100';
  if (r.type === 'Handler' && spec.socket && !isUint32(spec.socket.port)) return 'socket port undefined';
  return null;
}

// What the rule book does not say because no door receives it: what sensuctl drops, what needs a later version, and
// the dialects the agent and the backend run (Go templates, ECMAScript 5 expressions).
function dialectProblem(r: Resource, target: SensuGoVersion): string | null {
  const spec = r.spec;
  switch (r.type) {
    case 'CheckConfig':
      if (spec.subdue) return 'subdue is dropped by sensuctl and ignored by the scheduler';
      if (spec.subdues !== undefined) {
        if (!atLeast(target, 6, 7)) return 'subdues needs Sensu Go 6.7 or later';
        for (const window of spec.subdues as Json[]) {
          if (!RFC3339.test(window.begin) || !RFC3339.test(window.end)) return 'subdues begin and end must be RFC 3339 times';
          if (Date.parse(window.end) < Date.parse(window.begin)) return 'end time must be after begin time';
          for (const repeat of window.repeat ?? []) if (!isOneOf(SUBDUE_REPEATS, repeat)) return `invalid repeat period: ${repeat}`;
        }
      }
      for (const expression of spec.proxy_requests?.entity_attributes ?? []) {
        const problem = es5ExpressionProblem(expression);
        if (problem) return `entity_attributes ${JSON.stringify(expression)}: ${problem}`;
      }
      return pipelineRefsProblem(spec.pipelines ?? []) ?? templatesProblem(r);
    case 'HookConfig':
      return templatesProblem(r);
    case 'EventFilter':
      if (spec.when) return 'when is dropped by sensuctl and applied differently from legacy';
      for (const expression of spec.expressions) {
        const problem = es5ExpressionProblem(expression);
        if (problem) return `syntax error in expression ${JSON.stringify(expression.length > 80 ? expression.slice(0, 77) + '...' : expression)}: ${problem}`;
      }
      return null;
    default:
      return null;
  }
}

/** Why Sensu Go (version `target`) would refuse this document, or null when it accepts it: the rule book's rules, then compile's own. */
export function sensuProblem(r: Resource, target: SensuGoVersion): string | null {
  if (r.type !== 'Silenced') {
    const badName = sensuNameProblem(r.metadata.name);
    if (badName) return badName;
  }
  if (r.type !== 'Namespace' && !r.metadata.namespace) return 'namespace must be set';
  for (const value of Object.values(r.metadata.labels ?? {})) if (typeof value !== 'string') return 'label values must be strings';
  return typesProblem(r) ?? kindProblem(r.type, r.spec) ?? dialectProblem(r, target);
}
