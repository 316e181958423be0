import { join } from 'node:path';
import { storeQuotaOf, legacyNamespace } from '../../config/index.js';
import { systemClock } from '../../schedule/index.js';
import { openIntake, warnPastEntityLimit } from '../../intake/index.js';
import { DatastoreWarnings } from '../../store/index.js';
import { SecretsResolver, RemoteSecrets } from '../../secrets/index.js';
import { OutageReports } from '../../secrets/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import { openStateStore } from '../state-store.js';
import type { SettingsHub } from './settings-hub.js';

export interface StoreOptions {
  /** PostgreSQL shared with other servers, or null for the embedded SQLite file in `stateDir`. */
  readonly dsn: string | null;
  readonly stateDir: string;
  /** Where legacy events are also written as v2 events for the bridge, or null without one. */
  readonly bridgeNamespace: string | null;
}

export type DaemonStore = Awaited<ReturnType<typeof buildStore>>;

/** The state store, its one intake and event stores, and the secrets resolved from it; closed last of all. */
export async function buildStore(options: StoreOptions, hub: SettingsHub, logger: Logger) {
  const { dsn, stateDir } = options;
  const settings = hub.current();
  const store = openStateStore(dsn !== null ? { dsn } : { path: join(stateDir, 'checkbridge.db'), quotaBytes: storeQuotaOf(settings) }, logger);
  warnPastEntityLimit(store, settings, logger);
  // Slow reads and log syncs are warnings; the thresholds are settings (live), so a test can lower them.
  store.watchDatastore(new DatastoreWarnings(hub.current, logger.child({ component: 'store' }), store.engine));
  // The intake, with where v2 events live and each legacy event's v2 translation (and bridge outbox row) attached.
  const { intake, events } = await openIntake(store, hub.current, { clock: systemClock, logger, bridgeNamespace: options.bridgeNamespace });
  const namespace = () => legacyNamespace(hub.current());
  // Only the server resolves secrets; an outage of a provider is an event of this daemon's own entity.
  const secrets = new SecretsResolver({
    store: store.resources,
    logger,
    onOutage: new OutageReports(intake, hub.current).report,
  });
  // What goes to remote clients and agents: the values over mutual TLS only, a withheld one said once per check and member.
  const remoteSecrets = new RemoteSecrets((ns, refs) => secrets.resolve(ns, refs), logger);
  const service: Service = {
    name: 'store',
    // On PostgreSQL: configuration caches, on once this server hears the others' changes.
    start: () => store.listenForChanges(logger),
    // The intake, listed right after the store, has committed what it took before this runs.
    async stop() {
      await events.close();
      secrets.close();
      store.close();
    },
  };
  return { store, intake, events, secrets, remoteSecrets, namespace, service };
}
