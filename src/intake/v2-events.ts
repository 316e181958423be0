import { randomUUID } from 'node:crypto';
import type { ResourceTables } from '../store/index.js';
import type { EventRow, V2EventStore, V2Keys } from '../store/index.js';
import type { EmbeddedEventStore } from '../store/index.js';
import { eventProblem, silencedBy } from '../v2/index.js';
import type { Check, DecodedEvent, Entity, Event, ObjectMeta } from '../v2/index.js';

export type Publish = { ok: true; event: Event; replay?: boolean } | { ok: false; message: string; limited?: boolean };

/** Whether one more entity may be created; a message saying why not otherwise. */
export type Admission = () => string | null;

type Named<T> = T & { metadata: ObjectMeta & { name: string } };
/** An event past `eventProblem`: its entity is there and named, and so is its check when it has one. */
interface ValidEvent extends Event {
  entity: Named<Entity>;
  check?: Named<Check> | null;
}

/** Events about unknown proxies create the entity; a stored entity replaces the posted one. */
function attachEntity(store: ResourceTables, namespace: string, event: ValidEvent, gate: Admission): string | null {
  const proxyName = event.check?.proxy_entity_name;
  const name = proxyName || event.entity.metadata.name;
  if (!proxyName && event.entity.entity_class === 'agent') return null;
  const stored = store.getEntity(namespace, name);
  if (stored) {
    // A stored entity is named: the store keys it by its name.
    event.entity = stored as Named<Entity>;
    return null;
  }
  const refusal = gate();
  if (refusal) return refusal;
  const base: Entity = proxyName ? { metadata: { name, namespace } } : structuredClone(event.entity);
  const subscriptions = [...new Set([...(base.subscriptions ?? []), `entity:${name}`])];
  const entity: Named<Entity> = {
    ...base,
    entity_class: 'proxy',
    subscriptions,
    metadata: { ...base.metadata, name, namespace, ...(event.entity.metadata.created_by ? { created_by: event.entity.metadata.created_by } : {}) },
  };
  store.putEntity(namespace, name, entity);
  event.entity = entity;
  return null;
}

/** As Sensu Go's eventd: `silenced` lists the namespace's entries that silence the event, and any makes it `is_silenced`. */
function silence(store: ResourceTables, namespace: string, event: ValidEvent & { check: Check }, nowS: number): void {
  const silenced = silencedBy(event, store.listResources('Silenced', namespace), nowS);
  event.check.silenced = silenced;
  if (silenced.length > 0) event.check.is_silenced = true;
}

type Prepared = { ok: true; event: ValidEvent; row?: EventRow; metrics?: Event['metrics'] } | { ok: false; message: string; limited?: boolean };

/** CreateOrReplace up to the event store: defaults, validation, id, created_by, proxy entity; `row` when it has a check. */
function prepareEvent(store: ResourceTables, namespace: string, body: DecodedEvent, nowS: number, createdBy: string | undefined, gate: Admission): Prepared {
  // Decoded at its door: each field present has its Sensu Go type (one its clients can decode in every listing).
  const posted: Event = structuredClone(body);
  posted.entity ??= undefined;
  if (posted.entity && typeof posted.entity === 'object' && !posted.entity.entity_class) posted.entity.entity_class = 'proxy';
  for (const part of [posted.entity, posted.check]) {
    if (part && typeof part === 'object') {
      part.metadata ??= {};
      part.metadata.namespace ||= namespace;
    }
  }
  const problem = eventProblem(posted);
  if (problem) return { ok: false, message: problem };
  const event = posted as ValidEvent;
  event.id ||= randomUUID();
  if (createdBy) for (const part of [event, event.entity, event.check]) if (part) (part.metadata ??= {}).created_by = createdBy;
  event.metadata = { ...(event.metadata ?? {}), namespace };
  const refusal = attachEntity(store, namespace, event, gate);
  if (refusal) return { ok: false, message: refusal, limited: true };
  const { check } = event;
  if (!check) return { ok: true, event };
  silence(store, namespace, { ...event, check }, nowS);
  const { metrics, ...rest } = event;
  return { ok: true, event, metrics, row: { namespace, entity: event.entity.metadata.name, check: check.metadata.name, event: rest } };
}

// A sender's replay (same event id and sequence, after a crash before it saw our answer) changes nothing.
const isReplay = (previous: { id?: unknown; sequence?: unknown } | null, event: Event) =>
  previous !== null && Number(event.sequence) > 0 && previous.id === event.id && previous.sequence === event.sequence;
const stored = (updated: Event, metrics: Event['metrics']): Publish => ({ ok: true, event: metrics ? { ...updated, metrics } : updated });

/**
 * CreateOrReplace and the event store update: defaults, validation, id, created_by, proxy entity, history.
 * Returns the stored event (metrics are passed on, never stored); the intake sends it on to its pipelines.
 */
export async function publishEvent(
  store: ResourceTables,
  events: V2EventStore,
  namespace: string,
  body: DecodedEvent,
  nowS: number,
  createdBy: string | undefined,
  gate: Admission,
): Promise<Publish> {
  const prepared = prepareEvent(store, namespace, body, nowS, createdBy, gate);
  if (!prepared.ok || !prepared.row) return prepared;
  const { row, event, metrics } = prepared;
  const previous = await events.get(row.namespace, row.entity, row.check);
  if (isReplay(previous, event)) return { ok: true, event: previous!, replay: true };
  return stored(await events.update(row, nowS), metrics);
}

/** `publishEvent` on the embedded store, synchronously: inside the intake's group commit. */
export function publishEventSync(
  store: ResourceTables,
  events: EmbeddedEventStore,
  namespace: string,
  body: DecodedEvent,
  nowS: number,
  createdBy: string | undefined,
  gate: Admission,
): Publish {
  const prepared = prepareEvent(store, namespace, body, nowS, createdBy, gate);
  if (!prepared.ok || !prepared.row) return prepared;
  const { row, event, metrics } = prepared;
  const previous = store.getEventState(row.namespace, row.entity, row.check);
  if (isReplay(previous, event)) return { ok: true, event: events.getSync(row.namespace, row.entity, row.check)!, replay: true };
  // prepareEvent made `row.event` from its own copy of the body.
  return stored(events.updateSync(row, nowS, { previous, owned: true }), metrics);
}

const nameIn = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The v2 rows these events will read (a store may read them at once): each event's row, and its entity's unless an agent's own. */
export function v2RowsOf(submitted: readonly { readonly namespace: string; readonly body: DecodedEvent }[]): V2Keys {
  const events: [string, string, string][] = [];
  const entities: [string, string][] = [];
  for (const { namespace, body } of submitted) {
    const { check, entity } = body;
    const proxy = nameIn(check?.proxy_entity_name);
    const name = proxy ?? nameIn(entity?.metadata?.name);
    const checkName = nameIn(check?.metadata?.name);
    if (name === null) continue;
    if (checkName !== null) events.push([namespace, name, checkName]);
    if (proxy !== null || entity?.entity_class !== 'agent') entities.push([namespace, name]);
  }
  return { events, entities };
}
