// The agent's entity: the stored configuration (the API may change it) with the state each keepalive brings.
import type { StateStore } from '../store/index.js';
import type { AgentIdentity } from './sessions.js';
import { isObject, type AgentPayload } from './frames.js';
import { serveAs, typeProblem } from '../v2/index.js';
import type { Decoded, Entity, EntityConfig, ObjectMeta } from '../v2/index.js';

/** An agent's entity past `typeProblem('Entity')`: its fields of their Sensu Go types, named in its namespace. */
export type AgentEntity = Entity & { metadata: ObjectMeta & { name: string; namespace: string } };

/**
 * The entity to store from a keepalive: a new agent's own entity, else the stored configuration with the new state.
 * What the agent posted is not checked yet: `typedAgentEntity` says whether the result is an entity.
 */
export function entityFromKeepalive(identity: AgentIdentity, posted: AgentPayload, stored: Entity | null, nowS: number): Record<string, unknown> {
  const { name, namespace } = identity;
  const version = String(posted.sensu_agent_version ?? '');
  const state = { system: posted.system ?? {}, last_seen: nowS, sensu_agent_version: version };
  // As Sensu Go's agentd on each keepalive: the agent's own subscription comes back if an API edit dropped it.
  if (stored) return { ...stored, ...state, entity_class: 'agent', subscriptions: withEntitySubscription(name, stored.subscriptions) };
  const subscriptions = withEntitySubscription(name, Array.isArray(posted.subscriptions) ? posted.subscriptions : identity.subscriptions);
  // Metadata that is no object (a string, a list) brings nothing: its characters or items are no labels.
  const metadata = { ...(isObject(posted.metadata) ? posted.metadata : {}), name, namespace, created_by: identity.user };
  return { ...posted, ...state, entity_class: 'agent', subscriptions, metadata };
}

/** `entityFromKeepalive`'s entity once each field present has its Sensu Go type (it names the entity), else the field named. */
export function typedAgentEntity(entity: unknown): Decoded<AgentEntity> {
  const problem = typeProblem('Entity', entity);
  return problem === null ? { value: entity as AgentEntity, problem: null } : { value: null, problem };
}

/** The subscriptions with the agent's own `entity:NAME` (Sensu Go's AddEntitySubscription). */
function withEntitySubscription(name: string, subscriptions: unknown): string[] {
  return [...new Set([...(Array.isArray(subscriptions) ? (subscriptions as string[]) : []), `entity:${name}`])];
}

/** What an `entity_config` frame carries (core/v3 EntityConfig, from the one table): the stored entity's configuration, never its state. */
export function entityConfig(entity: Entity): EntityConfig {
  return serveAs('EntityConfig', entity);
}

// core/v3's EntityNotFound: the agent keeps its local entity configuration when told this name.
const ENTITY_NOT_FOUND = 'not found';

/** The first `entity_config` of a session: the agent waits for it before it sends anything (agent/agent.go). */
export function initialEntityConfig(namespace: string, stored: Entity | null): EntityConfig {
  return stored ? entityConfig(stored) : { metadata: { name: ENTITY_NOT_FOUND, namespace }, entity_class: 'agent' };
}

/** An agent's legacy client record: what /clients lists and the keepalive monitor reads. */
export type AgentClientRecord = {
  readonly name: string;
  readonly address: string;
  readonly subscriptions: string[];
  readonly version: string;
  readonly timestamp: number;
  readonly entity_class: 'agent';
  readonly namespace: string;
  readonly connected: boolean;
  readonly keepalive: { readonly thresholds: { readonly warning: number; readonly critical: number } };
  readonly deregister: boolean;
  readonly deregistration?: { readonly handler: string };
};

/**
 * The legacy client record of an agent: /clients lists it, and the one keepalive monitor watches it with the agent's
 * own timeouts (warning: the keepalive check's `timeout`, critical: its `ttl`).
 */
export function clientRecordOf(entity: AgentEntity, keepaliveCheck: { readonly timeout?: unknown; readonly ttl?: unknown }, nowS: number): AgentClientRecord {
  const { name, namespace } = entity.metadata;
  // The keepalive check is not validated: its thresholds are read as numbers, or the defaults.
  const warning = Number(keepaliveCheck.timeout) > 0 ? Number(keepaliveCheck.timeout) : 120;
  const critical = Number(keepaliveCheck.ttl) > 0 ? Number(keepaliveCheck.ttl) : 180;
  // The first address beyond loopback and link-local, as a legacy client's `address` would be.
  const addresses = (entity.system?.network?.interfaces ?? [])
    .flatMap((i) => (Array.isArray(i?.addresses) ? i.addresses : []))
    .filter((a) => !/^(127\.|::1\/|fe80:)/.test(a));
  return {
    name,
    address: String(addresses[0] ?? entity.system?.hostname ?? name).replace(/\/\d+$/, ''),
    subscriptions: (entity.subscriptions ?? []).filter((s) => s !== `entity:${name}`),
    version: entity.sensu_agent_version ?? '',
    timestamp: nowS,
    entity_class: 'agent',
    namespace,
    // A keepalive arrives only over a live session; the listener clears this when the session ends.
    connected: true,
    keepalive: { thresholds: { warning, critical } },
    deregister: entity.deregister === true,
    ...(entity.deregistration?.handler ? { deregistration: { handler: String(entity.deregistration.handler) } } : {}),
  };
}

/** Marks an agent's client record connected or not (the dashboard shows it); a record of another kind is left alone. */
export function markConnected(store: StateStore, name: string, connected: boolean): void {
  store.transaction(() => {
    store.lockClients([name]);
    const client = store.getClient(name);
    if (client?.entity_class === 'agent' && client.connected !== connected) store.putClient({ ...client, connected });
  });
}

/** At start no agent is connected: records a crash left `connected` are cleared. */
export function markAllDisconnected(store: StateStore): void {
  for (const client of store.listClients()) if (client.entity_class === 'agent' && client.connected === true) markConnected(store, String(client.name), false);
}
