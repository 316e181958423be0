import type { StateStore } from './state-store.js';

/** The legacy clients registered now: a client deleted with invalidation keeps only a tombstone, and is none. */
export function liveClients(store: Pick<StateStore, 'listClients'>): Record<string, unknown>[] {
  return store.listClients().filter((client) => !client.invalidated);
}
