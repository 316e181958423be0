// An event and its parts as Sensu Go serves them: each shaped by the one table of the Sensu Go types (serveAs), the
// entity redacted by the one policy wherever it is served.
import { redactedLabels } from '../config/index.js';
import { serveAs } from './go-json.js';
import type { Entity, Event, ObjectMeta } from './generated/interfaces.js';

/** An entity as stored: one kept before its agent's version had its name holds it as `svc_agent_version`. */
export type StoredEntity = Entity & { svc_agent_version?: string };

export function shapeMetadata(meta: ObjectMeta | null | undefined): ObjectMeta {
  return serveAs('ObjectMeta', meta ?? {});
}

/** The entity's metadata with the labels and annotations the one redaction policy names (its `redact` list too) as REDACTED. */
export function redactedMetadata(entity: Entity): ObjectMeta {
  // Only the labels' and annotations' values change (to a string): ObjectMeta still.
  return redactedLabels(shapeMetadata(entity.metadata) as Record<string, unknown>, entity.redact) as ObjectMeta;
}

/** An entity as Sensu Go serves it, wherever it is served; one stored before its class or its agent's version were kept under these names is served with them. */
export function serveEntity(entity: StoredEntity): Entity {
  const { svc_agent_version: older, ...own } = entity;
  return serveAs('Entity', {
    ...own,
    entity_class: entity.entity_class ?? 'proxy',
    sensu_agent_version: entity.sensu_agent_version ?? older,
    metadata: redactedMetadata(entity),
  });
}

// With an id, Go writes an event's top-level keys sorted: its MarshalJSON sets the id's text through a map.
const sorted = (value: Event): Event => Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The event as the API, the handlers and the agent door serve it. */
export function shapeEvent(event: Event): Event {
  const served = serveAs('Event', { ...event, entity: event.entity ? serveEntity(event.entity) : event.entity });
  return served.id ? sorted(served) : served;
}
