// Bodies arriving at any door are parsed whole; our recursive walks (validation, cloning, redaction) must never meet
// more nesting than the stack holds. Ruby's JSON parser refused the same depth by default (max_nesting 100).
export const MAX_JSON_DEPTH = 100;

export const DEPTH_MESSAGE = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

/** Whether objects and arrays nest deeper than `max` (a scalar is depth 0); the walk stops one level past `max`. */
export function nestedTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max === 0) return true;
  for (const inner of Object.values(value)) if (nestedTooDeep(inner, max - 1)) return true;
  return false;
}
