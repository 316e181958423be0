// An EventFilter's rules (Sensu Go's EventFilter.Validate, the name aside).
import { FILTER_ACTIONS, isOneOf } from './enumerations.js';
import { expressionsProblem } from './expressions.js';
import type { Json } from '../json.js';

/** The first reason an EventFilter's spec is invalid, or null. */
export function filterProblem(f: Json): string | null {
  if (!isOneOf(FILTER_ACTIONS, f.action)) return `action ${JSON.stringify(f.action ?? '')} is not valid: ${FILTER_ACTIONS.join(' or ')}`;
  if (!Array.isArray(f.expressions) || f.expressions.length === 0) return 'expressions: a filter must have one or more expressions';
  return expressionsProblem('expressions', f.expressions);
}
