import { DEFAULT_REDACT_KEYS } from '../config/index.js';

/** The legacy redact keys plus the client's own `redact` list, lower case (matched without regard to case). */
export function secretKeysOf(client: Record<string, unknown>): Set<string> {
  const own = Array.isArray(client.redact) ? client.redact.map(String) : [];
  return new Set([...DEFAULT_REDACT_KEYS, ...own].map((k) => k.toLowerCase()));
}

/** Whether any segment of a dotted attribute path names a secret. */
export const isSecretPath = (path: string, keys: ReadonlySet<string>) => path.split('.').some((part) => keys.has(part.toLowerCase()));

/** `value` with every secret key's value replaced, at any depth. */
export function redactDeep(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, keys));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keys.has(k.toLowerCase()) ? 'REDACTED' : redactDeep(v, keys)]));
}
