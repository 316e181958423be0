import type { ErrorObject } from 'ajv/dist/2020.js';
import { validators } from './schema-validators.js';
import { surelyValidCheck } from './check-fast-path.js';

export type SchemaName =
  | 'check'
  | 'hook'
  | 'proxy-requests'
  | 'subdue'
  | 'when'
  | 'client'
  | 'handler'
  | 'filter'
  | 'mutator'
  | 'settings'
  | 'extension'
  | 'result'
  | 'asset'
  | 'secrets';

export interface SchemaProblem {
  /** JSON pointer relative to the validated value. */
  readonly path: string;
  readonly message: string;
}

function problemOf(error: ErrorObject): SchemaProblem | null {
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  const template = parent?.['x-message'];
  if (typeof template !== 'string') return null;
  let path = error.instancePath;
  const params = error.params as { missingProperty?: string; propertyName?: string; detail?: string };
  // A JSON Pointer: a key's ~ and / escaped as in every other segment; nothing in it is percent-encoded.
  const segment = (name: string) => '/' + name.replace(/~/g, '~0').replace(/\//g, '~1');
  if (error.keyword === 'required' && params.missingProperty) path += segment(params.missingProperty);
  if (error.keyword === 'propertyNames' && params.propertyName) path += segment(params.propertyName);
  const key = (path.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
  return { path, message: template.replace('{key}', key).replace('{detail}', params.detail ?? '') };
}

function hasNullProperty(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasNullProperty);
  // for..in, not Object.values: no array per object over a 10,000-check configuration.
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner === null || (typeof inner === 'object' && hasNullProperty(inner))) return true;
  }
  return false;
}

// Legacy "set" means non-nil: a null attribute is treated as absent (copied only when one exists).
function withoutNulls(value: unknown): unknown {
  if (!hasNullProperty(value)) return value;
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = hasNullProperty(v) ? withoutNulls(v) : v;
  return out;
}

/** Every legacy message for `value`, in rule order, each once per path; `nullFree`: the caller knows it holds no null. */
export function schemaProblems(name: SchemaName, value: unknown, nullFree = false): SchemaProblem[] {
  const validate = validators.get(name)!;
  const data = nullFree ? value : withoutNulls(value);
  if (name === 'check' && surelyValidCheck(data)) return [];
  if (validate(data)) return [];
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  for (const error of validate.errors ?? []) {
    const problem = problemOf(error);
    if (!problem) continue;
    const key = problem.path + '\u0000' + problem.message;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out;
}
