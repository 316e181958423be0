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
  // 2: silences, aggregate members, stashes; expire_at is epoch seconds (the legacy Redis TTLs).
  `CREATE TABLE silences (id TEXT PRIMARY KEY, data TEXT NOT NULL, expire_at INTEGER) WITHOUT ROWID;
   CREATE TABLE aggregate_members (name TEXT NOT NULL, member TEXT NOT NULL, PRIMARY KEY (name, member)) WITHOUT ROWID;
   CREATE TABLE stashes (path TEXT PRIMARY KEY, content TEXT NOT NULL, expire_at INTEGER) WITHOUT ROWID;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
