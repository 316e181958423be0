import type { Logger } from 'pino';
import type { StateStore } from '../state-store.js';
import { EmbeddedEventStore } from '../tables/embedded-event-store.js';
import { EventStoreRouter } from './event-router.js';
import { pgEnvironment } from './connection.js';
import { daemonEnvironment } from '../../config/index.js';

/** The event store router of `checkbridge run`: stored PostgresConfigs tried once, PG* variables read now. The caller routes the intake to it. */
export async function startEventStores(store: StateStore, logger: Logger): Promise<EventStoreRouter> {
  const router = new EventStoreRouter({
    embedded: new EmbeddedEventStore(store.resources, (fn) => store.transaction(fn)),
    resources: store.resources,
    env: pgEnvironment(daemonEnvironment()),
    logger,
  });
  await router.start();
  return router;
}
