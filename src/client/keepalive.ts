import type { Settings } from '../config/index.js';
import { redact } from '../config/index.js';
import { LEGACY_VERSION } from '../legacy-version.js';

/**
 * The client definition as loaded, with version and timestamp, redacted; `signature` stays.
 * Configured sockets gain their missing bind/port defaults first, as legacy fills them before the first keepalive.
 */
export function keepalivePayload(settings: Settings, nowMs: number): Record<string, unknown> {
  const local = { ...(settings.client as Record<string, unknown>) };
  for (const [key, port] of [
    ['socket', 3030],
    ['http_socket', 3031],
  ] as const) {
    const socket = local[key];
    if (socket && typeof socket === 'object' && !Array.isArray(socket)) local[key] = { bind: '127.0.0.1', port, ...(socket as Record<string, unknown>) };
  }
  const keys = Array.isArray(local.redact) ? (local.redact as string[]) : undefined;
  return { ...(redact(local, keys) as Record<string, unknown>), version: LEGACY_VERSION, timestamp: Math.floor(nowMs / 1000) };
}
