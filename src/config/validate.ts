import { CATEGORIES } from './settings.js';
import { isPlainObject } from './merge.js';
import { schemaProblems, type SchemaName } from './schemas.js';

/** A rule violation in the merged settings, before it is traced back to a file. */
export interface Violation {
  readonly segments: readonly string[];
  readonly message: string;
}

const SINGULAR: Record<string, string> = { checks: 'check', filters: 'filter', mutators: 'mutator', handlers: 'handler', extensions: 'extension' };
const SCHEMA: Record<string, SchemaName> = { checks: 'check', filters: 'filter', mutators: 'mutator', handlers: 'handler', extensions: 'extension' };

function splitPointer(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function fromSchema(prefix: readonly string[], name: SchemaName, value: unknown): Violation[] {
  return schemaProblems(name, value).map((p) => ({ segments: [...prefix, ...splitPointer(p.path)], message: p.message }));
}

// Into `out`, allocating nothing for a valid value (the common case over 10,000 definitions).
function addFromSchema(out: Violation[], category: string, key: string, name: SchemaName, value: unknown, nullFree: boolean): void {
  const problems = schemaProblems(name, value, nullFree);
  for (const p of problems) out.push({ segments: [category, key, ...splitPointer(p.path)], message: p.message });
}

/** Validates one check definition as legacy does: its name is its key. */
export function validateCheck(name: string, definition: unknown): Violation[] {
  if (!isPlainObject(definition)) return [{ segments: [], message: 'check must be a hash' }];
  return fromSchema([], 'check', Object.assign({}, definition, { name }));
}

// The settings schema covers the top-level settings only; the categories, client and assets have schemas of their own,
// so the (possibly 10,000-check) categories are not walked twice.
const OWN_SCHEMA = new Set<string>([...CATEGORIES, 'client', 'assets']);
function topLevelSettings(merged: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(merged)) if (!OWN_SCHEMA.has(key)) out[key] = merged[key];
  return out;
}

/**
 * Every rule the legacy loader applied (the JSON schemas in schemas/) over the merged settings, all violations, in legacy order.
 * `definitionsNullFree`: the caller knows no check, filter, mutator, handler or extension holds a null value.
 */
export function validateSettings(merged: Record<string, unknown>, definitionsNullFree = false): Violation[] {
  const out: Violation[] = [];
  out.push(...fromSchema([], 'settings', topLevelSettings(merged)));
  for (const category of CATEGORIES) {
    const definitions = merged[category];
    if (definitions === undefined || definitions === null) continue;
    if (!isPlainObject(definitions)) {
      out.push({ segments: [category], message: `${category} must be a hash` });
      continue;
    }
    const schema = SCHEMA[category]!;
    for (const key of Object.keys(definitions)) {
      const definition = definitions[key];
      if (!isPlainObject(definition)) {
        out.push({ segments: [category, key], message: `${SINGULAR[category]} must be a hash` });
        continue;
      }
      let value = definition;
      if (category === 'checks') {
        value = Object.assign({}, definition);
        value.name = key;
      }
      addFromSchema(out, category, key, schema, value, definitionsNullFree);
    }
  }
  out.push(...fromSchema(['client'], 'client', merged.client));
  out.push(...assetViolations(merged));
  return out;
}

/** checkbridge's `assets` category: each definition's shape, then every `runtime_assets` name defined there. */
function assetViolations(merged: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const assets = merged.assets ?? {};
  if (!isPlainObject(assets)) return [{ segments: ['assets'], message: 'assets must be a hash' }];
  for (const [name, definition] of Object.entries(assets)) out.push(...fromSchema(['assets', name], 'asset', definition));
  const unknown = (segments: string[], definition: unknown) => {
    const names = isPlainObject(definition) ? definition.runtime_assets : undefined;
    if (!Array.isArray(names)) return;
    for (const name of names) {
      if (typeof name === 'string' && !Object.hasOwn(assets, name))
        out.push({
          segments: [...segments, 'runtime_assets'],
          message: `runtime_assets names an unknown asset: ${name} (define it under the top-level assets)`,
        });
    }
  };
  for (const category of ['checks', 'handlers', 'mutators'] as const) {
    const definitions = merged[category];
    if (!isPlainObject(definitions)) continue;
    for (const key of Object.keys(definitions)) {
      const definition = definitions[key];
      if (!isPlainObject(definition)) continue;
      if (Array.isArray(definition.runtime_assets)) unknown([category, key], definition);
      const hooks = category === 'checks' ? definition.hooks : undefined;
      if (!isPlainObject(hooks)) continue;
      for (const hook of Object.keys(hooks)) {
        const hookDefinition = hooks[hook];
        if (isPlainObject(hookDefinition) && Array.isArray(hookDefinition.runtime_assets)) unknown([category, key, 'hooks', hook], hookDefinition);
      }
    }
  }
  return out;
}
