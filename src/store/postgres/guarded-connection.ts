// The PostgreSQL connection as the store's tables see it during a group commit: the batch's writes wait for COMMIT,
// so a statement that reads or writes one of the batch's tables first sends them (postgres-state-store.ts).
import type { SqlDatabase } from '../sql/database.js';

/** The tables whose rows a group commit holds (BatchRows): a statement on them first sends the batch's pending writes. */
const BATCHED_TABLES = /\b(clients|results|events|v2_events|v2_entities)\b/i;

/** `connection` as the store's tables use it: `before` runs ahead of every statement on a batched table. */
export function guarded(connection: SqlDatabase, before: () => void): SqlDatabase {
  return {
    prepare(sql) {
      const statement = connection.prepare(sql);
      if (!BATCHED_TABLES.test(sql)) return statement;
      return {
        get: (...params) => (before(), statement.get(...params)),
        all: (...params) => (before(), statement.all(...params)),
        run: (...params) => (before(), statement.run(...params)),
      };
    },
    transaction: (fn) => connection.transaction(fn),
    get inTransaction() {
      return connection.inTransaction;
    },
    get open() {
      return connection.open;
    },
    get name() {
      return connection.name;
    },
    close: () => connection.close(),
  };
}
