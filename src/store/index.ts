export { SqliteStore, type StoredResult, type HistoryEntry } from './sqlite/store.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
