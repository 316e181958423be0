// The legacy deep merge: objects recurse, arrays concatenate then de-duplicate, the rest is replaced.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Structural key, insensitive to object key order (Ruby hash equality).
export function canonicalKey(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(canonicalKey).join(',') + ']';
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalKey(value[k])).join(',') + '}';
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function uniqueDeep<T>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const key = canonicalKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

export function deepMerge(base: unknown, next: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(next)) {
    const out: Record<string, unknown> = Object.assign({}, base);
    for (const [key, value] of Object.entries(next)) {
      out[key] = key in out ? deepMerge(out[key], value) : value;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(next)) return uniqueDeep([...base, ...next]);
  return next;
}

/**
 * The same merge, into `target`, linear where copying `deepMerge` would be quadratic over many files.
 * Copy-on-write: values of `next` are shared, and an object is copied the first time a later file merges
 * into it, so no input is ever mutated. `owned` holds the objects this merge created.
 */
export function deepMergeInto(
  target: Record<string, unknown>,
  next: Record<string, unknown>,
  owned: WeakSet<object> = new WeakSet([target]),
): Record<string, unknown> {
  for (const key of Object.keys(next)) {
    const current = target[key];
    const value = next[key];
    if (isPlainObject(current) && isPlainObject(value)) {
      let dest = current;
      if (!owned.has(dest)) {
        dest = Object.assign({}, current);
        owned.add(dest);
        target[key] = dest;
      }
      deepMergeInto(dest, value, owned);
    } else if (Array.isArray(current) && Array.isArray(value)) {
      target[key] = uniqueDeep([...current, ...value]);
    } else {
      target[key] = value;
    }
  }
  return target;
}
