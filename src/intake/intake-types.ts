// What enters and leaves the intake, as types: submissions waiting for their group commit and their fates, the events
// that leave, and the intake as the v2 API and the agent door see it.
import type { CheckResult } from '../execute/index.js';
import type { V2EventStore } from '../store/index.js';
import type { Processed } from './processor.js';
import type { Publish } from './v2-events.js';
import type { DecodedEvent, Event } from '../v2/index.js';

/** A stored v2 event on its way to its pipelines (a replay changed nothing and never leaves). */
export interface StoredV2Event {
  readonly kind: 'v2';
  readonly namespace: string;
  readonly event: Event;
}

/** What leaves the intake: a processed legacy result, or a stored v2 event. */
export type IntakeEvent = Processed | StoredV2Event;
export const isV2Event = (event: IntakeEvent): event is StoredV2Event => (event as StoredV2Event).kind === 'v2';

/** The event store router, as the intake sees it: while PostgreSQL is in use, v2 events are written there one by one. */
export interface RoutedEventStore extends V2EventStore {
  embeddedActive(): boolean;
}

export type Pending =
  | { readonly kind: 'result'; readonly result: CheckResult; readonly resolve: () => void; readonly reject: (error: Error) => void }
  | {
      readonly kind: 'v2';
      readonly namespace: string;
      /** Decoded at its door (each field of its Sensu Go type): the intake does not check its types again. */
      readonly body: DecodedEvent;
      readonly createdBy: string | undefined;
      /** Kept and committed again while the store is out of reach (a door that cannot answer, the agent's). */
      readonly untilStored?: boolean;
      readonly nowS: number;
      readonly resolve: (answer: Publish) => void;
      readonly reject: (error: Error) => void;
    };

/** One submission's fate in its group: what leaves the intake, a v2 event's answer, or its error. */
export interface Done {
  readonly pending: Pending;
  readonly emitted: IntakeEvent | null;
  readonly answer?: Publish;
  readonly error: Error | null;
  /** A copy of a result already handled: answered, not stored again. */
  readonly copy?: true;
}

/** The intake as the v2 API sees it (its PUT and POST): answered once the event is stored, or with why it was not. */
export interface EventIntake {
  /** Whether the doors push back now (the store is behind): a door that can refuse answers 503 with Retry-After. */
  readonly backlog: { readonly full: boolean; onDrained(listener: () => void): void };
  /**
   * `body` as its door took it in (`decodeEvent`, `typedEvent`); `untilStored`: kept and committed
   * again while the store is out of reach (for a door that cannot refuse).
   */
  submitEvent(namespace: string, body: DecodedEvent, createdBy?: string, untilStored?: boolean): Promise<Publish>;
}
