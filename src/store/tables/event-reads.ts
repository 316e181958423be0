// The reads of v2 events and entities the API awaits: on a shared store they go to its reader connection (the thread
// free meanwhile), on SQLite they are the tables' own synchronous reads.
import type { Entity, Event } from '../../v2/index.js';

export const EVENT_READS = {
  getEvent: 'SELECT data FROM v2_events WHERE namespace = ? AND entity = ? AND check_name = ?',
  listEvents: 'SELECT data FROM v2_events WHERE namespace = ? ORDER BY entity, check_name',
  listEventsOf: 'SELECT data FROM v2_events WHERE namespace = ? AND entity = ? ORDER BY check_name',
  listAllEvents: 'SELECT data FROM v2_events ORDER BY namespace, entity, check_name',
  listEntities: 'SELECT data FROM v2_entities WHERE namespace = ? ORDER BY name',
};

/** A read awaited without blocking the thread: the rows of `sql` (`?` placeholders) with `params`. */
export type ReadRows = (sql: string, params: readonly unknown[]) => Promise<{ data: string }[]>;

/** The tables' synchronous reads, and their awaited reads where they have them. */
interface Tables {
  readonly readRows: ReadRows | null;
  listEvents(namespace: string | null, entity?: string): Event[];
  getEvent(namespace: string, entity: string, check: string): Event | null;
  listEntities(namespace: string): Entity[];
}

const parsed = <T>(rows: readonly { data: string }[]) => rows.map((row) => JSON.parse(row.data) as T);

/** Events of a namespace (all when null), optionally of one entity, in key order. */
export async function listEventsAwaited(v2: Tables, namespace: string | null, entity?: string): Promise<Event[]> {
  if (!v2.readRows) return v2.listEvents(namespace, entity);
  const [sql, params] =
    namespace === null
      ? [EVENT_READS.listAllEvents, []]
      : entity === undefined
        ? [EVENT_READS.listEvents, [namespace]]
        : [EVENT_READS.listEventsOf, [namespace, entity]];
  return parsed<Event>(await v2.readRows(sql, params));
}

export async function getEventAwaited(v2: Tables, namespace: string, entity: string, check: string): Promise<Event | null> {
  if (!v2.readRows) return v2.getEvent(namespace, entity, check);
  return parsed<Event>(await v2.readRows(EVENT_READS.getEvent, [namespace, entity, check]))[0] ?? null;
}

export async function listEntitiesAwaited(v2: Tables, namespace: string): Promise<Entity[]> {
  if (!v2.readRows) return v2.listEntities(namespace);
  return parsed<Entity>(await v2.readRows(EVENT_READS.listEntities, [namespace]));
}
