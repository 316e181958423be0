// Where an agent's event may land besides its own entity: Sensu Go lets `check.proxy_entity_name` name any entity of
// the namespace; here, as for conf.d results, only a proxy entity (a new name makes one), never a live client's.
import type { StateStore } from '../store/index.js';
import { isObject, type AgentPayload } from './frames.js';
import type { Entity } from '../v2/index.js';

/** Why an agent's event may not name this proxy entity (or null): an agent's, the backend's, or a client with keepalives. */
export function proxyTargetProblem(
  store: StateStore,
  legacyNamespace: string,
  namespace: string,
  agent: string,
  check: AgentPayload | undefined,
): string | null {
  const proxy: unknown = check?.proxy_entity_name;
  if (typeof proxy !== 'string' || proxy === '' || proxy === agent) return null;
  const named = `check.proxy_entity_name ${JSON.stringify(proxy)}`;
  if (isObject(check?.metadata) && check.metadata.name === 'keepalive') return `${named}: an agent's keepalive event is about itself only`;
  const stored: Entity | null = store.resources.getEntity(namespace, proxy);
  if (stored && stored.entity_class !== 'proxy') return `${named} names an entity of class ${JSON.stringify(stored.entity_class)}, not a proxy entity`;
  // The legacy namespace lists every legacy client as an entity: the server's own client among them.
  const client = namespace === legacyNamespace ? store.getClient(proxy) : null;
  if (!client || client.invalidated) return null;
  if (client.entity_class === 'agent') return `${named} names a Sensu Go agent, not a proxy entity`;
  if (client.type !== 'proxy' && client.keepalives !== false) return `${named} names a client with keepalives, not a proxy entity`;
  return null;
}
