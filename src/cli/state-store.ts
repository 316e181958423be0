import type { Logger } from 'pino';
import { SqliteStore, checksInMissingNamespaces, missingNamespacesMessage } from '../store/index.js';
import { CheckbridgeError } from '../errors.js';

/**
 * The daemon's store: additive schema changes are applied in place (and logged); anything else, or checks in
 * namespaces that do not exist (the 6.2.0 rule), refuses the start with what to do.
 */
export function openStateStore(path: string, logger: Logger, quotaBytes?: number): SqliteStore {
  const store = SqliteStore.open(path, { quotaBytes });
  const missing = checksInMissingNamespaces(store.db);
  if (missing.length > 0) {
    store.close();
    throw new CheckbridgeError('CB_UPGRADE_REFUSED', `refusing to start: ${missingNamespacesMessage(missing)}`);
  }
  store.checkpointInBackground();
  if (store.openedAtVersion > 0 && store.openedAtVersion < store.schemaVersion()) {
    logger.info({ from: store.openedAtVersion, to: store.schemaVersion(), path }, 'store schema upgraded in place (additive changes only)');
  }
  return store;
}
