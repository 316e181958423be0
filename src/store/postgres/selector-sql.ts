// fieldSelector / labelSelector as SQL over the jsonb `selectors` column: containment (@>) uses the GIN index.
import { EVENT_FIELDS, type Event, type Op } from '../../v2/index.js';
import { redactOutput } from '../../config/index.js';

/** The selectors column: the event's fields and its labels, read from the redacted event as the API shows it. */
export function selectorColumn(event: Event): { readonly [field: string]: string | Record<string, string> } {
  // Redaction keeps the event's shape: only secret values change.
  const seen = redactOutput(event) as Event;
  return { ...EVENT_FIELDS.fields(seen), labels: { ...EVENT_FIELDS.labels(seen) } };
}

/** Appends one condition per operation (joined by AND), pushing its parameters; mirrors matchesSelector. */
export function selectorSql(ops: readonly Op[], labels: boolean, params: unknown[]): string {
  const p = (value: unknown) => `$${params.push(value)}`;
  const doc = (key: string, value: string) => JSON.stringify(labels ? { labels: { [key]: value } } : { [key]: value });
  const text = (key: string) => (labels ? `(selectors->'labels'->>${p(key)})` : `(selectors->>${p(key)})`);
  const has = (key: string) => (labels ? `(selectors->'labels' ? ${p(key)})` : `(selectors ? ${p(key)})`);
  const anyEqual = (key: string, values: readonly string[]) => `(${values.map((v) => `selectors @> ${p(doc(key, v))}::jsonb`).join(' OR ') || 'false'})`;
  return ops
    .map(({ left, op, right }) => {
      const generic = () => {
        switch (op) {
          case '==':
          case 'in':
            return anyEqual(left, right);
          case '!=':
          case 'notin':
            return `NOT ${anyEqual(left, right)}`;
          case 'matches':
            return `COALESCE(strpos(${text(left)}, ${p(right[0])}) > 0, false)`;
        }
      };
      if ((op === 'in' || op === 'notin') && right.length === 1) {
        // `linux in event.check.subscriptions`: membership in the comma-joined list the field holds, when it exists.
        const members = `ARRAY(SELECT btrim(m, E' \\t\\n\\r') FROM unnest(regexp_split_to_array(regexp_replace(${text(right[0]!)}, '^\\[|\\]$', '', 'g'), ',')) m)`;
        const member = `(${p(left)}::text = ANY(${members}))`;
        return `(CASE WHEN ${has(right[0]!)} THEN ${op === 'in' ? member : `NOT ${member}`} ELSE ${generic()} END)`;
      }
      return generic();
    })
    .join(' AND ');
}
