import type { StateStore as Store } from './state-store.js';
import { SqliteStateStore } from './sqlite/sqlite-state-store.js';
import { PostgresStateStore } from './postgres/postgres-state-store.js';

/** The state store's interface (state-store.ts), and where each engine's store is opened. */
export type StateStore = Store;

export const StateStore = {
  /** The embedded SQLite file (sqlite/sqlite-state-store.ts). */
  open: (...args: Parameters<typeof SqliteStateStore.open>): SqliteStateStore => SqliteStateStore.open(...args),
  /** PostgreSQL shared by several servers (postgres/postgres-state-store.ts). */
  openPostgres: (...args: Parameters<typeof PostgresStateStore.open>): PostgresStateStore => PostgresStateStore.open(...args),
};
