import type { ResourceTables } from '../../store/index.js';
import type { Decision } from '../../auth/index.js';
import type { Caller } from './context.js';

// Verifying a token (HMAC), reading its session, user and roles cost more than the PUT itself (test/bench v2-put-wrk).
// Entries hold for one access generation of the store (any write to users, keys, sessions or resources ends them,
// so a revocation applies to the next request) and never longer than MAX_AGE_MS.
const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  readonly value: T;
  readonly at: number;
  /** A token's expiry (seconds): not served at or after it. */
  readonly expS: number;
}

class GenerationCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = -1;

  constructor(private readonly store: ResourceTables) {}

  get(key: string, nowMs: number): T | undefined {
    if (this.generation !== this.store.accessGeneration) {
      this.entries.clear();
      this.generation = this.store.accessGeneration;
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs - entry.at >= MAX_AGE_MS || nowMs >= entry.expS * 1000 || nowMs < entry.at) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Caches `value` if the generation it was computed in is still current. */
  set(key: string, value: T, generation: number, nowMs: number, expS = Infinity): void {
    if (generation !== this.store.accessGeneration || generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, at: nowMs, expS });
  }
}

class AccessCache {
  readonly callers: GenerationCache<Caller>;
  readonly decisions: GenerationCache<Decision>;

  constructor(readonly store: ResourceTables) {
    this.callers = new GenerationCache(store);
    this.decisions = new GenerationCache(store);
  }
}

const caches = new WeakMap<ResourceTables, AccessCache>();

/** The cache of one store (one per daemon; tests may build several APIs on several stores). */
export function accessCacheOf(store: ResourceTables): AccessCache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new AccessCache(store)));
  return cache;
}

/** The decision's key: every input of `authorize`, as data. */
export function decisionKey(
  username: string,
  groups: readonly string[],
  verb: string,
  resource: string,
  namespace: string | null,
  name: string | null,
): string {
  return JSON.stringify([username, groups, verb, resource, namespace, name]);
}
