import type { StateStore } from '../store/index.js';
import type { EventDraft } from '../legacy/index.js';
import { isResolution, type Event } from '../v2/index.js';

// The built-in filters of both adapters of the handling pipeline, in one place.

/** Legacy: the built-in extension filters, effective only where a handler lists them. */
export const EXTENSION_FILTERS = new Set(['occurrences', 'check_dependencies']);

/** v2: the built-in EventFilters a pipeline's workflow may name (Sensu Go's `is_incident`, `not_silenced`, `has_metrics`). */
export const V2_BUILT_IN_FILTERS = new Map<string, (event: Event) => boolean>([
  ['is_incident', (e) => Boolean(e.check && (e.check.status !== 0 || isResolution(e)))],
  ['not_silenced', (e) => !e.check?.is_silenced],
  ['has_metrics', (e) => Boolean(e.metrics)],
]);

/** The `occurrences` extension (occ 1.2.0): the reason it filters, or null to pass. Non-integer settings disable it. */
export function occurrencesFilter(event: EventDraft): string | null {
  const check = event.check;
  const n = check.occurrences ?? 1;
  const refresh = check.refresh ?? 1800;
  if (event.action === 'resolve') {
    if (typeof n !== 'number') return null; // Ruby raises comparing; safe_run's status 2 passes the event
    if (event.occurrences_watermark >= n) return null;
  }
  if (!Number.isInteger(n) || !Number.isInteger(refresh)) return null;
  const wanted = n as number;
  if (event.occurrences < wanted) return 'not enough occurrences';
  if (event.occurrences > wanted && (event.action === 'create' || event.action === 'flapping')) {
    const interval = Number.isInteger(check.interval) && (check.interval as number) > 0 ? (check.interval as number) : 60;
    const count = Math.floor((refresh as number) / interval);
    if (count !== 0 && (event.occurrences - wanted) % count !== 0) return `only handling every ${count} occurrences`;
  }
  return null;
}

/** The `check_dependencies` extension: filtered while any dependency has a current event. Read from the store, not over HTTP. */
export function checkDependenciesFilter(event: EventDraft, store: StateStore): string | null {
  const dependencies = event.check.dependencies;
  if (!Array.isArray(dependencies)) return null;
  const client = String(event.client.name);
  for (const raw of dependencies) {
    const dependency = String(raw);
    const slash = dependency.lastIndexOf('/');
    if (slash < 0) {
      if (store.getEvent(client, dependency)) return 'event exists for check dependency';
      continue;
    }
    const [owner, check] = [dependency.slice(0, slash), dependency.slice(slash + 1)];
    if (owner.startsWith('subscription:')) {
      const subscription = owner.slice('subscription:'.length);
      const found = store.listEvents().some((e) => {
        const subs = (e.client as { subscriptions?: unknown } | undefined)?.subscriptions;
        return (e.check as { name?: unknown }).name === check && Array.isArray(subs) && subs.includes(subscription);
      });
      if (found) return 'event exists for check dependency';
    } else if (store.getEvent(owner, check)) {
      return 'event exists for check dependency';
    }
  }
  return null;
}
