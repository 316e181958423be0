// A definition's `secrets` attribute: references to Secret resources, never values; pure, so compile may read it.
import type { Json } from '../json.js';

/** One `secrets` entry of a check, hook, handler or mutator. */
export interface SecretRef {
  readonly name: string;
  readonly secret: string;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** What a command's environment variable may be called: a POSIX name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The first reason a `secrets` attribute is malformed, or null (an absent one is fine). */
export function secretRefsProblem(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return 'secrets must be an array of {"name", "secret"} objects';
  const seen = new Set<string>();
  for (const ref of value) {
    if (!isObject(ref)) return 'secrets must be an array of {"name", "secret"} objects';
    if (!nonEmpty(ref.name) || !ENV_NAME.test(ref.name))
      return 'each secret needs a name that is an environment variable name (letters, digits and _, not starting with a digit)';
    if (!nonEmpty(ref.secret)) return `secret ${ref.name} needs the name of a Secret resource in "secret"`;
    if (seen.has(ref.name)) return `secret name ${ref.name} is given twice`;
    seen.add(ref.name);
  }
  return null;
}

/** The references of a definition, empty when it has none (malformed ones were refused when loaded). */
export function secretRefsOf(definition: unknown): SecretRef[] {
  const refs = isObject(definition) ? definition.secrets : undefined;
  if (!Array.isArray(refs)) return [];
  return refs.filter((r): r is SecretRef => isObject(r) && nonEmpty(r.name) && nonEmpty(r.secret)).map((r) => ({ name: r.name, secret: r.secret }));
}

/** A definition's references as a v2 resource carries them (compile): null when it has none. */
export function v2SecretsOf(definition: unknown): SecretRef[] | null {
  const refs = secretRefsOf(definition);
  return refs.length > 0 ? refs : null;
}
