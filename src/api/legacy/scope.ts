// Which clients the legacy API shows: its own world, checkbridge.namespace's; a Sensu Go agent of another namespace
// only to an authenticated caller of an instance configured to show them. Every legacy view asks here.
import type { Settings } from '../../config/index.js';
import { legacyApiAllNamespacesOf, legacyNamespace } from '../../config/index.js';
import type { StateStore } from '../../store/index.js';

/** The one rule, for one settings snapshot. */
export interface LegacyScope {
  /** Whether a client record is shown (a legacy client always is). */
  shows(client: Record<string, unknown>): boolean;
  /** Whether a client name is hidden: it names an agent record of a namespace the caller does not see. */
  hides(name: string): boolean;
  /** The items of a list whose client is shown (one read of the client records). */
  filter<T>(items: T[], clientOf: (item: T) => unknown): T[];
}

export function legacyScope(store: StateStore, settings: Settings): LegacyScope {
  const [namespace, all] = [legacyNamespace(settings), legacyApiAllNamespacesOf(settings)];
  const shows = (client: Record<string, unknown>) => all || client.entity_class !== 'agent' || client.namespace === namespace;
  const hides = (name: string) => {
    const client = store.getClient(name);
    return client !== null && !shows(client);
  };
  const filter = <T>(items: T[], clientOf: (item: T) => unknown): T[] => {
    if (all || items.length === 0) return items;
    const hidden = new Set(
      store
        .listClients()
        .filter((c) => !shows(c))
        .map((c) => String(c.name)),
    );
    return hidden.size === 0 ? items : items.filter((item) => !hidden.has(String(clientOf(item))));
  };
  return { shows, hides, filter };
}
