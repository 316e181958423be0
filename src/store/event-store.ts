// The v2 event store: one interface, an SQLite and a PostgreSQL implementation, one shared test suite.
import type { Event, Op } from '../v2/index.js';

export interface EventRow {
  readonly namespace: string;
  readonly entity: string;
  readonly check: string;
  readonly event: Event;
}

export interface EventQuery {
  /** null: every namespace. */
  readonly namespace: string | null;
  readonly entity?: string;
  /** fieldSelector operations over the event's fields, read from the redacted event. */
  readonly fields?: readonly Op[];
  /** labelSelector operations over its labels by bare key. */
  readonly labels?: readonly Op[];
}

export interface V2EventStore {
  /** `sqlite`, or `postgres` with the configuration's name. */
  readonly label: string;
  get(namespace: string, entity: string, check: string): Promise<Event | null>;
  /** Matching events in key order (namespace, entity, check). */
  list(query: EventQuery): Promise<Event[]>;
  delete(namespace: string, entity: string, check: string): Promise<boolean>;
  /** Stores events as given (legacy translations carry their own history); the last row of a key wins. */
  putMany(rows: readonly EventRow[]): Promise<void>;
  /** The backend's event update: history ring of 21, occurrences, watermark, last_ok, state. */
  update(row: EventRow, nowSeconds: number): Promise<Event>;
  /** Whether any event lives in the namespace. */
  hasEvents(namespace: string): Promise<boolean>;
}
