export { SqliteStore, GroupRetry, type StoredResult, type HistoryEntry } from './sqlite/store.js';
export { V2Store, type ApiKeyRow } from './sqlite/v2-store.js';
export { remainingSeconds } from './sqlite/expiring-table.js';
export { Outbox, type OutboxRow, type DeadLetter } from './sqlite/outbox.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
export { planUpgrade, upgradeStore, checksInMissingNamespaces, missingNamespaceChecks, missingNamespacesMessage, type UpgradePlan } from './sqlite/upgrade.js';
