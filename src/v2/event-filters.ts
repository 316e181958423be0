import { inTimeWindows, type WindowSet } from '../schedule/index.js';
import { evaluateInSandbox, type DependencyLookup, type SandboxAllowance } from '../js-sandbox/index.js';
import type { Event, EventFilter, ObjectMeta } from './generated/interfaces.js';

/** A resolution: the previous history entry was not OK and this status is (needs two entries). */
export function isResolution(event: Event): boolean {
  const history = event.check?.history ?? [];
  return history.length >= 2 && history.at(-2)!.status !== 0 && event.check!.status === 0;
}

// As the reference backend does, metadata fields (name, namespace, labels, annotations) read from the object itself.
const lift = <T extends { metadata?: ObjectMeta | null }>(o: T | null | undefined) => (o ? { ...o, ...(o.metadata ?? {}) } : o);

/**
 * A v2 EventFilter: every expression true means it matches; `allow` passes matches, `deny` drops them; outside `when`
 * it does not apply. Expressions run in the sandbox (src/sandbox) with the event as `event`; `dependencies` reads
 * other events for `sensu.CheckDependencies`; `share` names the namespace whose sandbox time they use and the event's
 * allowance. `error` is given the first time an expression text fails, not per event; `failed` each time one did not evaluate.
 */
export async function filterAllows(
  filter: EventFilter,
  // The rehearsal's events are of its own model, not decoded: read here as an Event.
  subjectEvent: Event | Readonly<Record<string, unknown>>,
  nowMs: number,
  dependencies?: DependencyLookup,
  share: { namespace?: string; allowance?: SandboxAllowance } = {},
): Promise<{ allowed: boolean; error?: string; failed?: true }> {
  if (filter.when && !inTimeWindows(filter.when as WindowSet, nowMs)) return { allowed: true };
  const event: Event = subjectEvent;
  const check = lift(event.check) ?? {};
  const subject = {
    ...event,
    entity: lift(event.entity),
    check: event.check ? check : undefined,
    is_resolution: isResolution(event),
    is_incident: check.status !== 0,
    has_check: Boolean(event.check),
    has_metrics: Boolean(event.metrics),
    is_silenced: Boolean(check.is_silenced),
  };
  // An entity of a legacy client's shape names itself at the top.
  const entityName = event.entity?.metadata?.name ?? (event.entity as { name?: string } | null | undefined)?.name ?? '';
  const options = { nowMs, entity: String(entityName), dependencies, ...share };
  for (const expression of filter.expressions ?? []) {
    const outcome = await evaluateInSandbox(String(expression), { event: subject }, options);
    // A failing expression does not match: an allow filter drops the event, a deny filter lets it through.
    if (!outcome.ok) return { allowed: filter.action === 'deny', failed: true, ...(outcome.report ? { error: outcome.error } : {}) };
    if (!outcome.matched) return { allowed: filter.action === 'deny' };
  }
  return { allowed: filter.action !== 'deny' };
}
