import { Script, createContext } from 'node:vm';
import { inTimeWindows, type WindowSet } from '../schedule/subdue.js';

type Json = Record<string, any>;

/** A resolution: the previous history entry was not OK and this status is (needs two entries). */
export function isResolution(event: Json): boolean {
  const history = (event.check?.history ?? []) as { status: number }[];
  return history.length >= 2 && history.at(-2)!.status !== 0 && event.check.status === 0;
}

const scripts = new Map<string, Script>();

// Expressions are configuration written by administrators, run in a fresh context; the scope is a copy, so an
// expression cannot change what other filters and handlers see. The limit is wall-clock time: 1 s stops a runaway
// loop while a busy machine (the suite saw 100 ms missed under load) never fails a sound expression.
const EXPRESSION_LIMIT_MS = 1000;
export function evaluateExpression(expression: string, scope: Json): boolean {
  let script = scripts.get(expression);
  if (!script) {
    script = new Script(`(${expression})`);
    if (scripts.size > 1000) scripts.clear();
    scripts.set(expression, script);
  }
  return Boolean(script.runInContext(createContext(structuredClone(scope)), { timeout: EXPRESSION_LIMIT_MS }));
}

const evaluate = (expression: string, event: Json) => evaluateExpression(expression, { event });

/** A v2 EventFilter: every expression true means it matches; `allow` passes matches, `deny` drops them; outside `when` it does not apply. */
export function filterAllows(filter: Json, event: Json, nowMs: number): { allowed: boolean; error?: string } {
  if (filter.when && !inTimeWindows(filter.when as WindowSet, nowMs)) return { allowed: true };
  // As the reference backend does, metadata fields (name, namespace, labels, annotations) read from the object itself.
  const lift = (o: Json | undefined) => (o ? { ...o, ...(o.metadata ?? {}) } : o);
  const check = lift(event.check) ?? {};
  const subject = { ...event, entity: lift(event.entity), check: event.check ? check : undefined, is_resolution: isResolution(event), is_incident: check.status !== 0, has_check: Boolean(event.check), has_metrics: Boolean(event.metrics), is_silenced: Boolean(check.is_silenced) };
  try {
    const matched = ((filter.expressions ?? []) as string[]).every((e) => evaluate(e, subject));
    return { allowed: filter.action === 'deny' ? !matched : matched };
  } catch (error) {
    // A failing expression does not match: an allow filter drops the event, a deny filter lets it through.
    return { allowed: filter.action === 'deny', error: (error as Error).message };
  }
}
