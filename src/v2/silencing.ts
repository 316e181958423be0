// Which v2 Silenced entries silence an event: Sensu Go's Event.IsSilencedBy and Silenced.Matches (sensu/core v2).
import type { Json } from '../json.js';

/** An entry matches when its subscription and its check are each absent, `*`, or the event's. */
function entryMatches(entry: Json, check: string, subscription: string): boolean {
  const fits = (value: unknown, actual: string) => !value || value === '*' || value === actual;
  return fits(entry.subscription, subscription) && fits(entry.check, check);
}

function silences(entry: Json, event: Json, nowS: number): boolean {
  if (Number(entry.begin ?? 0) > nowS) return false;
  const expireAt = Number(entry.expire_at ?? 0);
  if (expireAt > 0 && expireAt < nowS) return false;
  const check = String(event.check.metadata?.name ?? '');
  const entitySubscriptions = (event.entity?.subscriptions ?? []) as string[];
  if (entryMatches(entry, check, `entity:${event.entity?.metadata?.name ?? ''}`)) return true;
  // A proxy entity's event matches by the entity's subscriptions; an agent's by the check's that the entity also has.
  const subscriptions = event.check.proxy_entity_name
    ? entitySubscriptions
    : ((event.check.subscriptions ?? []) as string[]).filter((s) => entitySubscriptions.includes(s));
  return subscriptions.some((subscription) => entryMatches(entry, check, subscription));
}

/** The names of the entries that silence the event now, each once, in the entries' order. */
export function silencedBy(event: Json, entries: readonly Json[], nowS: number): string[] {
  if (!event.check) return [];
  const names = entries.filter((entry) => silences(entry, event, nowS)).map((entry) => String(entry.metadata?.name ?? ''));
  return [...new Set(names)];
}
