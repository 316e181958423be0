import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import { parseCron } from '../time/cron.js';
import { isValidTime } from '../time/parse-time.js';
import { expressionProblem } from '../eval/index.js';

export type SchemaName =
  | 'check' | 'hook' | 'proxy-requests' | 'subdue' | 'when' | 'client' | 'handler' | 'filter' | 'mutator'
  | 'settings' | 'extension' | 'result' | 'asset' | 'secrets';

const FILES = ['check', 'hook', 'proxy-requests', 'subdue', 'client', 'handler', 'filter', 'mutator', 'settings', 'extension', 'result', 'asset', 'secrets'];

// schemas/ sits at the package root, two levels above dist/src/config or src/config.
export function schemasDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    dir = dirname(dir);
    try {
      readFileSync(join(dir, 'schemas', 'check.json'));
      return join(dir, 'schemas');
    } catch {
      /* keep climbing */
    }
  }
  throw new Error('schemas directory not found');
}

function nonEmptyStrings(schema: boolean | string, data: unknown): boolean {
  if (!Array.isArray(data)) return true;
  const re = typeof schema === 'string' ? new RegExp(schema) : null;
  return data.every((item) => typeof item === 'string' && item !== '' && (!re || re.test(item)));
}

function subsetOf(allowed: unknown[], data: unknown): boolean {
  return !Array.isArray(data) || data.flat(Infinity).every((item) => allowed.includes(item));
}

function validTimes(props: string[], data: unknown): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return true;
  const record = data as Record<string, unknown>;
  return props.every((p) => isValidTime(record[p]));
}

// Every `eval:` string must be inside the safe subset (DECISIONS); the first one outside is named.
function evalAttributes(_schema: boolean, data: unknown, parentSchema?: unknown): boolean {
  const problem = firstEvalProblem(data);
  if (!problem) return true;
  (evalAttributes as unknown as { errors: unknown[] }).errors = [{ keyword: 'x-eval-attributes', message: problem, params: { detail: problem }, parentSchema }];
  return false;
}

function firstEvalProblem(data: unknown): string | null {
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

let compiled: Map<SchemaName, ValidateFunction> | null = null;

// Compiled once per process (about 11 ms a schema); validation itself is then cheap.
export function validatorFor(name: SchemaName): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'x-cron', schemaType: 'boolean', errors: false, validate: (_: boolean, data: unknown) => parseCron(data) !== null });
    ajv.addKeyword({ keyword: 'x-times', schemaType: 'array', errors: false, validate: validTimes });
    ajv.addKeyword({ keyword: 'x-nonempty-strings', schemaType: ['boolean', 'string'], errors: false, validate: nonEmptyStrings });
    ajv.addKeyword({ keyword: 'x-subset-of', schemaType: 'array', errors: false, validate: subsetOf });
    ajv.addKeyword({ keyword: 'x-eval-attributes', schemaType: 'boolean', errors: true, validate: evalAttributes });
    const dir = schemasDir();
    for (const file of FILES) ajv.addSchema(JSON.parse(readFileSync(join(dir, `${file}.json`), 'utf8')));
    // The filter `when` window is the subdue schema with the filter's wording.
    const subdue = readFileSync(join(dir, 'subdue.json'), 'utf8').replaceAll('check subdue', 'filter when');
    ajv.addSchema({ ...JSON.parse(subdue), $id: 'https://checkbridge.dev/schemas/when.json' });
    compiled = new Map();
    for (const name of [...FILES, 'when'] as SchemaName[]) {
      compiled.set(name, ajv.getSchema(`https://checkbridge.dev/schemas/${name}.json`)!);
    }
  }
  return compiled.get(name)!;
}

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
  if (error.keyword === 'required' && params.missingProperty) path += '/' + params.missingProperty;
  if (error.keyword === 'propertyNames' && params.propertyName) path += '/' + params.propertyName;
  const key = decodeURIComponent(path.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
  return { path, message: template.replace('{key}', key).replace('{detail}', params.detail ?? '') };
}

function hasNullProperty(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasNullProperty);
  for (const inner of Object.values(value)) if (inner === null || hasNullProperty(inner)) return true;
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

/** Every legacy message for `value`, in rule order, each once per path. */
export function schemaProblems(name: SchemaName, value: unknown): SchemaProblem[] {
  const validate = validatorFor(name);
  if (validate(withoutNulls(value))) return [];
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
