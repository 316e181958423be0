// The v2 entities of a namespace as the lists show them (and the entity limit counts them): its stored entities and,
// in the legacy namespace, every listed legacy client that has none of its own yet (as an `agent` or `proxy` entity).
import { eventStoreOf, type V2ApiDeps } from './context.js';
import { translateClient, type Entity } from '../../v2/index.js';

const byName = (a: Entity, b: Entity) => (String(a.metadata?.name) < String(b.metadata?.name) ? -1 : 1);

/** get, put, delete and list of entities; put and delete touch the stored entity alone (a client leaves by the legacy API). */
export function entityTable(deps: V2ApiDeps) {
  const v2 = deps.store.resources;
  const isLegacy = (ns: string) => deps.legacyNamespace?.() === ns;
  return {
    // One lookup for every route by name (GET, PUT, PATCH, DELETE): what the list shows, and nothing of another namespace.
    get: (ns: string, name: string): Entity | null => {
      const stored: Entity | null = v2.getEntity(ns, name);
      const client = stored || !isLegacy(ns) ? null : deps.store.getClient(name);
      return stored ?? (client && isListedClient(client) ? translateClient(client, ns) : null);
    },
    put: (ns: string, name: string, value: Entity) => v2.putEntity(ns, name, value),
    delete: (ns: string, name: string) => v2.deleteEntity(ns, name),
    list: (ns: string): Entity[] => {
      const stored: Entity[] = v2.listEntities(ns);
      if (!isLegacy(ns)) return stored;
      const names = new Set(stored.map((e) => String(e.metadata?.name)));
      const clients = deps.store.listClients().filter((c) => isListedClient(c) && !names.has(String(c.name)));
      return clients.length === 0 ? stored : [...stored, ...clients.map((c) => translateClient(c, ns))].sort(byName);
    },
  };
}

/**
 * Whether a client record is a legacy client the legacy namespace shows as an entity. A Sensu Go agent's record
 * mirrors its own entity, stored in its own namespace (any namespace): found there, never through this record.
 */
function isListedClient(client: Readonly<Record<string, unknown>>): boolean {
  return !client.invalidated && client.entity_class !== 'agent';
}

/** Why a listed entity cannot be deleted here: it is a legacy client with no stored entity (409), or null. */
export function legacyClientOnly(deps: V2ApiDeps, ns: string | null, name: string): string | null {
  if (ns === null || deps.store.resources.getEntity(ns, name) || deps.legacyNamespace?.() !== ns) return null;
  return `entity ${JSON.stringify(name)} is the legacy client of that name: remove it with DELETE /clients/${encodeURIComponent(name)} on the legacy API`;
}

/** A deleted entity's events go with it, as in Sensu Go: none could be read back through an entity that no longer exists. */
export async function deleteEntityEvents(deps: V2ApiDeps, namespace: string, name: string): Promise<void> {
  const events = eventStoreOf(deps);
  for (const event of await events.list({ namespace, entity: name })) await events.delete(namespace, name, String(event.check?.metadata?.name ?? ''));
}

const MANAGED_BY = 'sensu.io/managed_by';

/** Why an entity PUT may not write this one, as Sensu Go: it says its agent manages it, or the stored agent entity does (409). */
export function agentManaged(body: Entity, existing: Entity | null): string | null {
  if (body.metadata?.labels?.[MANAGED_BY] === 'sensu-agent') return 'entity is managed by its agent';
  if (existing && existing.entity_class !== 'proxy' && existing.metadata?.labels?.[MANAGED_BY] === 'sensu-agent') return 'entity is managed by its agent';
  return null;
}
