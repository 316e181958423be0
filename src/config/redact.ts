// The one redaction policy applied: the default keys plus an object's own `redact` list, as the rule book (rules/redaction.ts) matches them.
import { redactDsn } from './redact-dsn.js';
import { DEFAULT_KEYS, DEFAULT_REDACT_KEYS, ownRedactList, redactKeysWith, type RedactKeys } from '../rules/index.js';

export { DEFAULT_REDACT_KEYS, redactKeysWith, type RedactKeys } from '../rules/index.js';

const CENSOR = 'REDACTED';

// Only plain JSON objects are walked: class instances (errors, dates) serialize themselves.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The defaults plus the non-empty `redact` list carried by the object itself (a legacy client, a v2 entity), or null. */
function ownList(value: Record<string, unknown>): RedactKeys | null {
  if (!Object.hasOwn(value, 'redact') || ownRedactList(value.redact).length === 0) return null;
  return redactKeysWith(value.redact);
}

// A `secrets` list of a check, hook, handler or mutator names Secret resources, never values: its `secret` keys stay.
function isSecretRefList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((ref) => isPlainObject(ref) && Object.keys(ref).every((k) => (k === 'name' || k === 'secret') && typeof ref[k] === 'string'))
  );
}

// Copy-on-write: untouched subtrees are returned as they are, so a body with no secret costs one walk and no copy.
function walk(value: unknown, keys: RedactKeys, scoped: boolean): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = walk(value[i], keys, scoped);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  const inScope = (scoped && ownList(value)) || keys;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const inner = value[key];
    // A DSN is shown without its password (checkbridge.store.dsn, a PostgresConfig's spec.dsn).
    const next = inScope.has(key)
      ? CENSOR
      : key.toLowerCase() === 'dsn' && typeof inner === 'string'
        ? redactDsn(inner)
        : key === 'secrets' && isSecretRefList(inner)
          ? inner
          : walk(inner, inScope, scoped);
    if (next !== inner) Object.defineProperty((out ??= { ...value }), key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}

/** Replaces the value of every default key and every key of `own`, at any depth, through arrays too (print-config, /settings, keepalives). */
export function redact(value: unknown, own: readonly string[] = DEFAULT_REDACT_KEYS): unknown {
  return walk(value, own === DEFAULT_REDACT_KEYS ? DEFAULT_KEYS : redactKeysWith(own), false);
}

/**
 * The one policy for every API body and log line: the default keys at any depth; inside an object that carries its
 * own non-empty `redact` list (a client, an entity) that list's keys too. v2 labels and annotations are plain maps, so
 * a label whose key matches has its value redacted.
 */
export function redactOutput(value: unknown): unknown {
  return walk(value, DEFAULT_KEYS, true);
}

/** A v2 entity's labels and annotations under the one policy (its own `redact` list with the defaults): a new metadata object. */
export function redactedLabels(metadata: Record<string, unknown>, redactList: unknown): Record<string, unknown> {
  const keys = redactKeysWith(redactList);
  const out = { ...metadata };
  for (const field of ['labels', 'annotations']) {
    const map = out[field];
    if (!isPlainObject(map)) continue;
    out[field] = Object.fromEntries(Object.entries(map).map(([key, value]) => [key, keys.has(key) ? CENSOR : value]));
  }
  return out;
}

/**
 * Value-based redaction for one execution: every resolved secret value in a command's captured output is replaced
 * before the output is logged or stored (the values themselves are known only to that execution), longest first so
 * a value that contains another is replaced whole.
 */
export function redactValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of [...values].filter((v) => v !== '').sort((a, b) => b.length - a.length)) out = out.split(value).join(CENSOR);
  return out;
}
