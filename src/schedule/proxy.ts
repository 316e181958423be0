import { substituteObject } from '../tokens/index.js';
import { attributesMatch, type EvalHook } from './attributes.js';
import { splayStepMs } from './splay.js';

export interface ProxyTarget {
  readonly client: Record<string, unknown>;
  /** The check substituted from this proxy client, `source` defaulting to its name. */
  readonly check: Record<string, unknown>;
  /** Offset from the scheduled instant, in ms. */
  readonly delayMs: number;
}

export interface ProxySkip {
  readonly client: string;
  readonly unmatched: readonly string[];
}

export interface ProxyPlan {
  readonly targets: readonly ProxyTarget[];
  readonly skipped: readonly ProxySkip[];
}

/** Matches registry clients, substitutes tokens per client, spreads them over interval × coverage. */
export function planProxyRequests(
  check: Record<string, unknown>,
  clients: readonly Record<string, unknown>[],
  intervalSeconds: number,
  evaluate?: EvalHook,
): ProxyPlan {
  const proxy = check.proxy_requests as { client_attributes?: Record<string, unknown>; splay?: unknown; splay_coverage?: number };
  const wanted = proxy?.client_attributes ?? {};
  // Legacy: an empty client_attributes publishes nothing at all.
  if (Object.keys(wanted).length === 0) return { targets: [], skipped: [] };
  const matched = clients.filter((client) => attributesMatch(client, wanted, evaluate));
  const splayMs = splayStepMs(matched.length, intervalSeconds, Boolean(proxy.splay), proxy.splay_coverage);
  const targets: ProxyTarget[] = [];
  const skipped: ProxySkip[] = [];
  matched.forEach((client, index) => {
    const { value, unmatched } = substituteObject(check, client);
    if (unmatched.length > 0) {
      skipped.push({ client: String(client.name), unmatched });
      return;
    }
    if (value.source === undefined || value.source === null || value.source === false) value.source = client.name;
    targets.push({ client, check: value, delayMs: index * splayMs });
  });
  return { targets, skipped };
}
