// Versioned schema: PRAGMA user_version is the version; each step runs once, in order, in a transaction.
export const MIGRATIONS: readonly string[] = [
  // 1: clients, last results with their history, events.
  `CREATE TABLE clients (name TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE results (
     client TEXT NOT NULL, check_name TEXT NOT NULL, data TEXT NOT NULL,
     history TEXT NOT NULL DEFAULT '[]', last_ok INTEGER,
     PRIMARY KEY (client, check_name)) WITHOUT ROWID;
   CREATE TABLE events (client TEXT NOT NULL, check_name TEXT NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (client, check_name)) WITHOUT ROWID;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
