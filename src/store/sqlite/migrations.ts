/** Recreates `table` with `columns` as a rowid table, copying every row (`names`: the columns, in order). */
function rebuildAsRowid(table: string, columns: string, names: string): string {
  return `CREATE TABLE ${table}_rowid (${columns});
   INSERT INTO ${table}_rowid (${names}) SELECT ${names} FROM ${table};
   DROP TABLE ${table};
   ALTER TABLE ${table}_rowid RENAME TO ${table};\n`;
}

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
  // 2: silences, aggregate members, stashes; expire_at is epoch milliseconds (the legacy Redis TTLs).
  `CREATE TABLE silences (id TEXT PRIMARY KEY, data TEXT NOT NULL, expire_at INTEGER) WITHOUT ROWID;
   CREATE TABLE aggregate_members (name TEXT NOT NULL, member TEXT NOT NULL, PRIMARY KEY (name, member)) WITHOUT ROWID;
   CREATE TABLE stashes (path TEXT PRIMARY KEY, content TEXT NOT NULL, expire_at INTEGER) WITHOUT ROWID;`,
  // 3: the v2 API: events, entities and resources by namespace; users, API keys (hashes only), sessions, secrets.
  `CREATE TABLE v2_events (namespace TEXT NOT NULL, entity TEXT NOT NULL, check_name TEXT NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (namespace, entity, check_name)) WITHOUT ROWID;
   CREATE TABLE v2_entities (namespace TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (namespace, name)) WITHOUT ROWID;
   CREATE TABLE v2_resources (kind TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (kind, namespace, name)) WITHOUT ROWID;
   CREATE TABLE users (name TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE api_keys (key_hash TEXT PRIMARY KEY, username TEXT NOT NULL, created_by TEXT NOT NULL, created_at INTEGER NOT NULL, hint TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE auth_sessions (id TEXT PRIMARY KEY, username TEXT NOT NULL, refresh_id TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
   CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
  // 4: the bridge's durable outbox (filled in the transaction that stores the event), dead letters, counters.
  `CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL, entity TEXT NOT NULL,
     check_name TEXT NOT NULL, body TEXT NOT NULL, enqueued_at INTEGER NOT NULL);
   CREATE INDEX outbox_by_key ON outbox (namespace, entity, check_name, seq);
   CREATE TABLE dead_letters (seq INTEGER PRIMARY KEY, namespace TEXT NOT NULL, entity TEXT NOT NULL, check_name TEXT NOT NULL,
     body TEXT NOT NULL, status INTEGER NOT NULL, message TEXT NOT NULL, failed_at INTEGER NOT NULL);
   CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;`,
  // 5: a record of each `checkbridge upgrade`, so running it again can say it already ran.
  // The default namespace is part of every store: every legacy event lives in it.
  `CREATE TABLE upgrades (version INTEGER PRIMARY KEY, from_version INTEGER NOT NULL, upgraded_at INTEGER NOT NULL, backup TEXT) WITHOUT ROWID;
   INSERT OR IGNORE INTO v2_resources VALUES ('Namespace', '', 'default', '{"name":"default"}');`,
  // 6: the tables of JSON rows written on every result or event become rowid tables. A WITHOUT ROWID table keeps
  // whole rows in its interior pages too, so a 1–2 KB row rewrote several pages per update (measured: 14–18 µs
  // per upsert against 4–6 µs). Every row is copied in the step's transaction: nothing to back up, applied on open.
  rebuildAsRowid('clients', 'name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (name)', 'name, data') +
    rebuildAsRowid(
      'results',
      "client TEXT NOT NULL, check_name TEXT NOT NULL, data TEXT NOT NULL, history TEXT NOT NULL DEFAULT '[]', last_ok INTEGER, PRIMARY KEY (client, check_name)",
      'client, check_name, data, history, last_ok',
    ) +
    rebuildAsRowid(
      'events',
      'client TEXT NOT NULL, check_name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (client, check_name)',
      'client, check_name, data',
    ) +
    rebuildAsRowid(
      'v2_events',
      'namespace TEXT NOT NULL, entity TEXT NOT NULL, check_name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (namespace, entity, check_name)',
      'namespace, entity, check_name, data',
    ) +
    rebuildAsRowid('v2_entities', 'namespace TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (namespace, name)', 'namespace, name, data'),
  // 7: the migration rehearsal's history (store/tables/rehearsal-history.ts): per check counts, the first divergences.
  `CREATE TABLE rehearsal_state (id INTEGER PRIMARY KEY, configuration TEXT NOT NULL, since INTEGER NOT NULL, skipped INTEGER NOT NULL DEFAULT 0);
   CREATE TABLE rehearsal_checks (check_name TEXT PRIMARY KEY, seen INTEGER NOT NULL, agreed INTEGER NOT NULL, diverged INTEGER NOT NULL,
     last_at INTEGER NOT NULL);
   CREATE TABLE rehearsal_divergences (seq INTEGER PRIMARY KEY AUTOINCREMENT, check_name TEXT NOT NULL, at INTEGER NOT NULL, data TEXT NOT NULL);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Versions whose step changes or drops what is there: the daemon never applies these on its own; `checkbridge
 * upgrade` does, after a backup. None so far: steps 1–5 and 7 only add, and step 6 copies every row in its transaction.
 */
const NON_ADDITIVE: ReadonlySet<number> = new Set<number>();

/** The steps from `version` to the binary's schema, and whether any of them needs `checkbridge upgrade`. */
export function pendingMigrations(version: number, nonAdditive: ReadonlySet<number> = NON_ADDITIVE): { versions: number[]; needsUpgradeCommand: boolean } {
  const versions: number[] = [];
  for (let v = version + 1; v <= SCHEMA_VERSION; v++) versions.push(v);
  return { versions, needsUpgradeCommand: versions.some((v) => nonAdditive.has(v)) };
}
