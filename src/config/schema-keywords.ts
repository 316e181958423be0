// The checks behind the schemas' own keywords; the generated validators (schema-validators.js) call these.
import { parseLegacyCron } from '../time/index.js';
import { isValidTime } from '../time/index.js';
import { expressionProblem } from '../ruby-eval/index.js';

export function validCron(data: unknown): boolean {
  return parseLegacyCron(data) !== null;
}

// The schemas name a handful of patterns; compiled once, not per validated array.
const patterns = new Map<string, RegExp>();
function patternOf(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source)));
  return re;
}

export function nonEmptyStrings(schema: boolean | string, data: unknown): boolean {
  if (!Array.isArray(data)) return true;
  const re = typeof schema === 'string' ? patternOf(schema) : null;
  return data.every((item) => typeof item === 'string' && item !== '' && (!re || re.test(item)));
}

export function subsetOf(allowed: unknown[], data: unknown): boolean {
  return !Array.isArray(data) || data.flat(Infinity).every((item) => allowed.includes(item));
}

export function validTimes(props: string[], data: unknown): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return true;
  const record = data as Record<string, unknown>;
  return props.every((p) => isValidTime(record[p]));
}

// Every `eval:` string must be inside the safe subset src/ruby-eval reads; the first one outside is named.
export function firstEvalProblem(data: unknown): string | null {
  if (typeof data === 'string') {
    if (!data.startsWith('eval:')) return null;
    const problem = expressionProblem(data);
    return problem ? `${JSON.stringify(data)}: ${problem}` : null;
  }
  if (data === null || typeof data !== 'object') return null;
  for (const inner of Object.values(data)) {
    const problem = firstEvalProblem(inner);
    if (problem) return problem;
  }
  return null;
}
