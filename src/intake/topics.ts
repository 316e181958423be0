// The intake's named, typed topics: what leaves it, published once, and the daemons that subscribe (handling, the
// bridge, the keepalive monitors, agentd, the dashboard) instead of callbacks wired between them by the composition root.
import type { EventDraft } from '../legacy/index.js';
import type { IntakeEvent } from './intake-types.js';

/** One named topic: every subscriber gets every value published, in the order subscribed. */
export class Topic<T> {
  private readonly subscribers: ((value: T) => void)[] = [];

  constructor(readonly name: string) {}

  /** Returns how to unsubscribe (a service stopping). */
  readonly subscribe = (subscriber: (value: T) => void): (() => void) => {
    this.subscribers.push(subscriber);
    return () => {
      const at = this.subscribers.indexOf(subscriber);
      if (at >= 0) this.subscribers.splice(at, 1);
    };
  };

  /** Hands `value` to each subscriber now; a subscriber that throws stops the publish, as a listener's throw did. */
  readonly publish = (value: T): void => {
    for (const subscriber of [...this.subscribers]) subscriber(value);
  };
}

/** An entity written through the API (labels, subscriptions): its agent, if connected, is told. */
export interface EntityChange {
  readonly namespace: string;
  readonly name: string;
}

/** The topics of one intake. */
export class IntakeTopics {
  /** Every event that left the intake committed, of either kind. */
  readonly committed = new Topic<IntakeEvent>('committed event');
  /** A keepalive registered a new client that wants a registration event: handled at once, never stored. */
  readonly keepalive = new Topic<EventDraft>('keepalive');
  /** An entity changed through the API. */
  readonly entityChange = new Topic<EntityChange>('entity change');

  /** The entity change in the shape the v2 API calls with. */
  readonly entityWritten = (namespace: string, name: string): void => this.entityChange.publish({ namespace, name });
}
