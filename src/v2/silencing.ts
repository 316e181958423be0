// Which v2 Silenced entries silence an event: Sensu Go's Event.IsSilencedBy and Silenced.Matches (sensu/core v2).
import type { Check, Event, Silenced } from './generated/interfaces.js';

const fits = (value: unknown, actual: string) => !value || value === '*' || value === actual;

/**
 * The subscriptions an entry may name to silence the event: the entity's own `entity:NAME`, and a proxy entity's
 * subscriptions, or an agent's check's that its entity also has. A set, made once an event: each entry is one lookup.
 */
function silenceableSubscriptions(event: Event, check: Check): Set<string> {
  const entitySubscriptions = event.entity?.subscriptions ?? [];
  const subscriptions = new Set([`entity:${event.entity?.metadata?.name ?? ''}`]);
  if (check.proxy_entity_name) for (const s of entitySubscriptions) subscriptions.add(s);
  else {
    const held = new Set(entitySubscriptions);
    for (const s of check.subscriptions ?? []) if (held.has(s)) subscriptions.add(s);
  }
  return subscriptions;
}

/** An entry silences the event now when it has begun, has not expired, and its subscription and check each fit. */
function silences(entry: Silenced, check: string, subscriptions: Set<string>, nowS: number): boolean {
  if (Number(entry.begin ?? 0) > nowS) return false;
  const expireAt = Number(entry.expire_at ?? 0);
  if (expireAt > 0 && expireAt < nowS) return false;
  if (!fits(entry.check, check)) return false;
  // No subscription, or `*`: `entity:NAME` is always one of the event's.
  return !entry.subscription || entry.subscription === '*' || subscriptions.has(entry.subscription);
}

/** The names of the entries that silence the event now, each once, in the entries' order. */
export function silencedBy(event: Event, entries: readonly Silenced[], nowS: number): string[] {
  if (!event.check) return [];
  const check = String(event.check.metadata?.name ?? '');
  const subscriptions = silenceableSubscriptions(event, event.check);
  const names = entries.filter((entry) => silences(entry, check, subscriptions, nowS)).map((entry) => String(entry.metadata?.name ?? ''));
  return [...new Set(names)];
}
