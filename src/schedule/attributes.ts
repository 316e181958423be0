import { rubyToS } from '../tokens/index.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

// Ruby's to_s of an attribute; nil is "".
function toS(value: unknown): string {
  return value === undefined || value === null ? '' : rubyToS(value);
}

/** Evaluates an `eval: ...` attribute against the value found; `root` is the object matched (its tokens). */
export type EvalHook = (attribute: string, value: unknown, root: Record<string, unknown>) => boolean;

/** Legacy attributes_match?: equality, recursion into objects, to_s equality, then `eval:` when a hook is given. */
export function attributesMatch(values: Record<string, unknown>, match: Record<string, unknown>, evaluate?: EvalHook, root = values): boolean {
  return Object.entries(match).every(([key, expected]) => {
    const actual = values[key];
    if (deepEqual(expected, actual)) return true;
    if (isObject(expected) && isObject(actual)) return attributesMatch(actual, expected, evaluate, root);
    if (toS(expected) === toS(actual)) return true;
    if (typeof expected === 'string' && expected.startsWith('eval:') && evaluate) return evaluate(expected, actual, root);
    return false;
  });
}
