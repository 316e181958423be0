import { redactKeysWith, type RedactKeys } from '../rules/index.js';

/** The legacy redact keys plus the client's own `redact` list, matched as the one redaction policy matches. */
export function secretKeysOf(client: Record<string, unknown>): RedactKeys {
  return redactKeysWith(client.redact);
}

/** Whether any segment of a dotted attribute path names a secret. */
export const isSecretPath = (path: string, keys: RedactKeys) => path.split('.').some((part) => keys.has(part));

/** `value` with every secret key's value replaced, at any depth. */
export function redactDeep(value: unknown, keys: RedactKeys): unknown {
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, keys));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keys.has(k) ? 'REDACTED' : redactDeep(v, keys)]));
}
