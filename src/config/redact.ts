// Legacy default sensitive keys; a client's own `redact` list replaces them.
export const DEFAULT_REDACT_KEYS: readonly string[] = [
  'password',
  'passwd',
  'pass',
  'api_key',
  'api_token',
  'access_key',
  'secret_key',
  'private_key',
  'secret',
  'routing_key',
  'access_token_read',
  'access_token_write',
  'access_token_path',
  'webhook_url',
  'nickserv_password',
  'channel_password',
  'community',
  'keystore_password',
  'truststore_password',
  'proxy_password',
  'access_key_id',
  'secret_access_key',
];

import { redactDsn } from './redact-dsn.js';

const CENSOR = 'REDACTED';

type KeySet = ReadonlySet<string>;

const lowered = (keys: readonly string[]): KeySet => new Set(keys.map((key) => key.toLowerCase()));
const DEFAULT_SET = lowered(DEFAULT_REDACT_KEYS);

// Only plain JSON objects are walked: class instances (errors, dates) serialize themselves.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A non-empty `redact` list of strings carried by the object itself (a legacy client, a v2 entity). */
function ownList(value: Record<string, unknown>): KeySet | null {
  if (!Object.hasOwn(value, 'redact')) return null;
  const list = value.redact;
  return Array.isArray(list) && list.length > 0 && list.every((key) => typeof key === 'string') ? lowered(list) : null;
}

// A `secrets` list of a check, hook, handler or mutator names Secret resources, never values: its `secret` keys stay.
function isSecretRefList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((ref) => isPlainObject(ref) && Object.keys(ref).every((k) => (k === 'name' || k === 'secret') && typeof ref[k] === 'string'))
  );
}

// Copy-on-write: untouched subtrees are returned as they are, so a body with no secret costs one walk and no copy.
function walk(value: unknown, keys: KeySet, scoped: boolean): unknown {
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
    const next = inScope.has(key.toLowerCase())
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

/** Replaces the value of every key in `keys` (case-insensitive), at any depth, through arrays too (print-config, /settings, keepalives). */
export function redact(value: unknown, keys: readonly string[] = DEFAULT_REDACT_KEYS): unknown {
  return walk(value, keys === DEFAULT_REDACT_KEYS ? DEFAULT_SET : lowered(keys), false);
}

/**
 * The one policy for every API body and log line: the default keys, case-insensitive, at any depth; inside an object
 * that carries its own non-empty `redact` list (a client, an entity) that list replaces the defaults.
 * v2 labels and annotations are plain maps, so a label whose key matches has its value redacted.
 */
export function redactOutput(value: unknown): unknown {
  return walk(value, DEFAULT_SET, true);
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
