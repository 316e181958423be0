import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { legacyNamespace } from '../config/index.js';
import type { Clock } from '../schedule/index.js';
import { startEventStores, type StateStore } from '../store/index.js';
import { Intake } from './intake.js';
import { legacyToV2Writer } from './legacy-to-v2.js';

export type EventStores = Awaited<ReturnType<typeof startEventStores>>;

export interface IntakeOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where legacy events are also written as v2 events for the bridge, or null without one. */
  readonly bridgeNamespace: string | null;
}

/**
 * The one intake with where its events live: the v2 event stores (embedded, or PostgreSQL per PostgresConfig), and
 * each legacy event's v2 translation written in the transaction that stores it, its PostgreSQL rows flushed after.
 */
export async function openIntake(store: StateStore, settings: () => Settings, options: IntakeOptions): Promise<{ intake: Intake; events: EventStores }> {
  const intake = new Intake(store, settings, options.clock, options.logger);
  const events = await startEventStores(store, options.logger);
  // Staged PostgreSQL writes flush once their results committed; the intake writes its events through the router.
  intake.afterCommit((committed) => events.flushStaged(committed));
  intake.routeEventsTo(events);
  intake.withinTransaction(legacyToV2Writer(store, () => legacyNamespace(settings()), options.bridgeNamespace, events));
  return { intake, events };
}
