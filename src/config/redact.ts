// Legacy default sensitive keys (reference §10.9); a client's own `redact` list replaces them.
export const DEFAULT_REDACT_KEYS: readonly string[] = [
  'password', 'passwd', 'pass', 'api_key', 'api_token', 'access_key', 'secret_key', 'private_key',
  'secret', 'routing_key', 'access_token_read', 'access_token_write', 'access_token_path', 'webhook_url',
  'nickserv_password', 'channel_password', 'community', 'keystore_password', 'truststore_password',
  'proxy_password', 'access_key_id', 'secret_access_key',
];

// Replaces the value of every sensitive key, at any depth, through arrays of objects too.
export function redact(value: unknown, keys: readonly string[] = DEFAULT_REDACT_KEYS): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, keys));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = keys.includes(key) ? 'REDACTED' : redact(inner, keys);
  }
  return out;
}
