/** One metric tag, as output_metric_tags and the parsers give it. */
export interface MetricTag {
  readonly name: string;
  readonly value: string;
}

const isScalar = (value: unknown): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * `output_metric_tags` as the v2 list of {name, value}: the list form (v2's) kept in order, a plain
 * object of name → value (the older legacy form) in key order; values as strings. Invalid input gives no tags
 * (validation names it before a check ever runs).
 */
export function metricTagList(tags: unknown): MetricTag[] {
  if (Array.isArray(tags)) {
    return tags
      .filter(
        (t): t is { name: string; value: string | number | boolean } => t !== null && typeof t === 'object' && typeof t.name === 'string' && isScalar(t.value),
      )
      .map((t) => ({ name: t.name, value: String(t.value) }));
  }
  if (tags === null || typeof tags !== 'object') return [];
  return Object.entries(tags)
    .filter((entry): entry is [string, string | number | boolean] => isScalar(entry[1]))
    .map(([name, value]) => ({ name, value: String(value) }));
}
