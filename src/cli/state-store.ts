import type { Logger } from 'pino';
import { StateStore, missingNamespaceChecks, missingNamespacesMessage } from '../store/index.js';
import { CheckbridgeError } from '../errors.js';

/** Where the daemon's state lives: the embedded SQLite file, or PostgreSQL shared with other servers (`--store-dsn`). */
export type StateLocation = { readonly path: string; readonly quotaBytes?: number } | { readonly dsn: string };

/**
 * The daemon's store: schema changes that keep every row are applied in place (and logged); anything else, or checks in
 * namespaces that do not exist (the 6.2.0 rule), refuses the start with what to do.
 */
export function openStateStore(location: StateLocation, logger: Logger): StateStore {
  const store = 'dsn' in location ? StateStore.openPostgres(location.dsn) : StateStore.open(location.path, { quotaBytes: location.quotaBytes });
  const missing = missingNamespaceChecks(store.db);
  if (missing.length > 0) {
    store.close();
    throw new CheckbridgeError('CB_UPGRADE_REFUSED', `refusing to start: ${missingNamespacesMessage(missing)}`);
  }
  // A checkpoint that fails (the disk is full) is retried each turn; the log says so once per run of failures.
  store.checkpointInBackground((error) => logger.warn({ store: store.db.name, error }, 'WAL checkpoint failed; retrying'));
  if (store.openedAtVersion > 0 && store.openedAtVersion < store.schemaVersion()) {
    logger.info({ from: store.openedAtVersion, to: store.schemaVersion(), store: store.db.name }, 'store schema upgraded in place (every row kept)');
  }
  // Which store holds the state, so that an operator running several servers can see they share one.
  logger.info(
    { engine: store.engine, store: store.db.name },
    store.engine === 'postgres' ? 'state store: PostgreSQL, shared with every server using this DSN' : 'state store: embedded SQLite file',
  );
  return store;
}
