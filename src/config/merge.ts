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
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(next)) {
      out[key] = key in out ? deepMerge(out[key], value) : value;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(next)) return uniqueDeep([...base, ...next]);
  return next;
}
