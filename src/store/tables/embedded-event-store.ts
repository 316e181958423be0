import type { ResourceTables } from './v2-resources.js';
import type { EventQuery, EventRow, V2EventStore } from '../event-store.js';
import { EVENT_FIELDS, matchesSelector, updateEvent, updateOwnedEvent, type Event } from '../../v2/index.js';
import type { EventState } from './event-states.js';
import { getEventAwaited, listEventsAwaited } from './event-reads.js';
import { redactOutput } from '../../config/index.js';

/**
 * The embedded event store: the state store's own v2_events table, on either engine (SQLite, or the PostgreSQL store
 * several servers share), as against a PostgresConfig's event datastore; selectors are matched in memory over the redacted events.
 */
export class EmbeddedEventStore implements V2EventStore {
  // The label the API and logs have always shown for it, whichever engine holds the state.
  readonly label = 'sqlite';

  constructor(
    private readonly v2: ResourceTables,
    private readonly transaction: (fn: () => void) => void = (fn) => fn(),
  ) {}

  async get(namespace: string, entity: string, check: string): Promise<Event | null> {
    return getEventAwaited(this.v2, namespace, entity, check);
  }

  getSync(namespace: string, entity: string, check: string): Event | null {
    return this.v2.getEvent(namespace, entity, check);
  }

  async list(query: EventQuery): Promise<Event[]> {
    const events = await listEventsAwaited(this.v2, query.namespace, query.entity);
    if (!query.fields?.length && !query.labels?.length) return events;
    return events.filter((event) => {
      // Redaction keeps the event's shape: only secret values change.
      const seen = redactOutput(event) as Event;
      return (
        (!query.fields || matchesSelector(query.fields, EVENT_FIELDS.fields(seen))) &&
        (!query.labels || matchesSelector(query.labels, EVENT_FIELDS.labels(seen)))
      );
    });
  }

  async delete(namespace: string, entity: string, check: string): Promise<boolean> {
    return this.v2.deleteEvent(namespace, entity, check);
  }

  async putMany(rows: readonly EventRow[]): Promise<void> {
    this.transaction(() => this.putManySync(rows));
  }

  /** For writers inside an SQLite transaction (the intake's group commit). */
  putManySync(rows: readonly EventRow[]): void {
    for (const row of rows) this.v2.putEvent(row.namespace, row.entity, row.check, row.event);
  }

  async update(row: EventRow, nowSeconds: number): Promise<Event> {
    return this.updateSync(row, nowSeconds);
  }

  /**
   * For writers inside an SQLite transaction (the v2 PUT group commit). `previous`: the state already read;
   * `owned`: `row.event` was made for this update and may be changed in place.
   */
  updateSync(row: EventRow, nowSeconds: number, options: { previous?: EventState | null; owned?: boolean } = {}): Event {
    const previous = options.previous === undefined ? this.v2.getEventState(row.namespace, row.entity, row.check) : options.previous;
    const updated = options.owned ? updateOwnedEvent(previous, row.event, nowSeconds) : updateEvent(previous, row.event, nowSeconds);
    this.v2.putEvent(row.namespace, row.entity, row.check, updated, true);
    return updated;
  }

  async hasEvents(namespace: string): Promise<boolean> {
    return (await listEventsAwaited(this.v2, namespace)).length > 0;
  }
}
