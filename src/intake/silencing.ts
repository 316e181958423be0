import type { StateStore } from '../store/index.js';
import type { EventDraft } from '../legacy/index.js';

/** The entry keys that can silence `check` on a client, in the legacy lookup order. */
export function silenceKeys(subscriptions: readonly string[], check: string): string[] {
  const keys = subscriptions.flatMap((sub) => [`${sub}:*`, `${sub}:${check}`]);
  keys.push(`*:${check}`);
  return [...new Set(keys)];
}

/** Sets `silenced`/`silenced_by`; an `expire_on_resolve` entry is consumed by a resolve instead of silencing it. */
export function applySilencing(store: StateStore, event: EventDraft, nowMs: number): void {
  const now = Math.floor(nowMs / 1000);
  event.silenced = false;
  event.silenced_by = [];
  if ((event.check.status === 0 && event.action === 'create') || store.silences.knownEmpty) return;
  const subscriptions = Array.isArray(event.client.subscriptions) ? (event.client.subscriptions as unknown[]).map(String) : [];
  for (const key of silenceKeys(subscriptions, String(event.check.name))) {
    const found = store.silences.get(key, nowMs);
    if (!found) continue;
    const entry = found.value;
    if (entry.expire_on_resolve === true && event.action === 'resolve') {
      store.silences.delete(key, nowMs);
      continue;
    }
    if (entry.begin === null || entry.begin === undefined || Number(entry.begin) <= now) event.silenced_by.push(String(entry.id ?? key));
  }
  event.silenced = event.silenced_by.length > 0;
}
