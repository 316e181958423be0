import type { StateStore } from '../store/index.js';
import type { ResultIntake } from '../execute/index.js';

/** resolve_event: an OK result with force_resolve from the event's client, history removed. */
export function resolveEvent(intake: ResultIntake, event: Record<string, unknown>, nowMs: number): Promise<void> {
  const now = Math.floor(nowMs / 1000);
  const { history: _history, ...check } = event.check as Record<string, unknown>;
  const client = event.client as Record<string, unknown>;
  return intake.submit({
    client: String(client.name),
    check: { ...check, name: String(check.name), output: 'Resolving on request of the API', status: 0, force_resolve: true, issued: now, executed: now },
    fromServer: true,
    ...(typeof client.signature === 'string' ? { signature: client.signature } : {}),
  });
}

/**
 * DELETE /clients/:name and the deregistration handler: resolve (and so handle) every current event, then remove
 * the client with its results; `tombstone` keeps an invalidated signature until `until` (API invalidate).
 */
export async function removeClient(
  store: StateStore,
  intake: ResultIntake,
  name: string,
  nowMs: number,
  tombstone?: { until: number | null },
): Promise<boolean> {
  const client = store.getClient(name);
  if (!client || client.invalidated) return false;
  await Promise.allSettled(store.listEvents(name).map((event) => resolveEvent(intake, event, nowMs)));
  store.transaction(() => store.deleteClient(name, tombstone));
  return true;
}
