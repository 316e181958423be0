// The shared store's tables on PostgreSQL (the SQLite schema's twin, in a schema of its own so that it never meets the
// PostgresConfig event store's tables): versioned in store_schema, migrated on open under an advisory lock.
import { CheckbridgeError } from '../../errors.js';
import type { SyncPostgres } from './sync-client.js';
import { CREATE_RESULT_CLAIMS_PG } from '../tables/result-ids.js';
import { CHANGES_CHANNEL } from './change-listener.js';

export const STORE_SCHEMA = 'checkbridge_store';
/** The `counters` row every server's resource writes bump (migration 2). */
export const RESOURCE_GENERATION = 'resource_generation';

// Keys sort as SQLite sorts them (bytewise): COLLATE "C". Epochs set by checkbridge are BIGINT; last_ok is the
// client's `executed` as sent, which may carry a fraction.
const KEY = 'TEXT COLLATE "C" NOT NULL';
const PG_STORE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE clients (name ${KEY} PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE results (client ${KEY}, check_name ${KEY}, data TEXT NOT NULL, history TEXT NOT NULL DEFAULT '[]',
     last_ok DOUBLE PRECISION, PRIMARY KEY (client, check_name));
   CREATE TABLE events (client ${KEY}, check_name ${KEY}, data TEXT NOT NULL, PRIMARY KEY (client, check_name));
   CREATE TABLE silences (id ${KEY} PRIMARY KEY, data TEXT NOT NULL, expire_at BIGINT);
   CREATE TABLE aggregate_members (name ${KEY}, member ${KEY}, PRIMARY KEY (name, member));
   CREATE TABLE stashes (path ${KEY} PRIMARY KEY, content TEXT NOT NULL, expire_at BIGINT);
   CREATE TABLE v2_events (namespace ${KEY}, entity ${KEY}, check_name ${KEY}, data TEXT NOT NULL, PRIMARY KEY (namespace, entity, check_name));
   CREATE TABLE v2_entities (namespace ${KEY}, name ${KEY}, data TEXT NOT NULL, PRIMARY KEY (namespace, name));
   CREATE TABLE v2_resources (kind ${KEY}, namespace ${KEY}, name ${KEY}, data TEXT NOT NULL, PRIMARY KEY (kind, namespace, name));
   CREATE TABLE users (name ${KEY} PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE api_keys (key_hash ${KEY} PRIMARY KEY, username TEXT NOT NULL, created_by TEXT NOT NULL, created_at BIGINT NOT NULL, hint ${KEY});
   CREATE TABLE auth_sessions (id ${KEY} PRIMARY KEY, username TEXT NOT NULL, refresh_id TEXT NOT NULL, expires_at BIGINT NOT NULL);
   CREATE INDEX auth_sessions_by_user ON auth_sessions (username);
   CREATE TABLE secrets (name ${KEY} PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE outbox (seq BIGSERIAL PRIMARY KEY, namespace ${KEY}, entity ${KEY}, check_name ${KEY}, body TEXT NOT NULL, enqueued_at BIGINT NOT NULL);
   CREATE INDEX outbox_by_key ON outbox (namespace, entity, check_name, seq);
   CREATE TABLE dead_letters (seq BIGINT PRIMARY KEY, namespace TEXT NOT NULL, entity TEXT NOT NULL, check_name TEXT NOT NULL,
     body TEXT NOT NULL, status INTEGER NOT NULL, message TEXT NOT NULL, failed_at BIGINT NOT NULL);
   CREATE TABLE counters (name ${KEY} PRIMARY KEY, value BIGINT NOT NULL);
   INSERT INTO v2_resources VALUES ('Namespace', '', 'default', '{"name":"default"}') ON CONFLICT DO NOTHING;`,
  // 2: the resource generation, bumped in the transaction of every write to v2_resources by any server (a trigger,
  // so no writer can forget it): a reader re-reads every CheckConfig only when it moved.
  `INSERT INTO counters VALUES ('${RESOURCE_GENERATION}', 0) ON CONFLICT DO NOTHING;
   CREATE FUNCTION ${STORE_SCHEMA}.bump_resource_generation() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN UPDATE ${STORE_SCHEMA}.counters SET value = value + 1 WHERE name = '${RESOURCE_GENERATION}'; RETURN NULL; END $$;
   CREATE TRIGGER v2_resources_generation AFTER INSERT OR UPDATE OR DELETE ON v2_resources
     FOR EACH STATEMENT EXECUTE FUNCTION ${STORE_SCHEMA}.bump_resource_generation();`,
  // 3: result ids recognised by client and check, not by id alone: one client's ids never make another's results copies.
  CREATE_RESULT_CLAIMS_PG,
  // 4: the migration rehearsal's history (store/tables/rehearsal-history.ts).
  `CREATE TABLE rehearsal_state (id INTEGER PRIMARY KEY, configuration TEXT NOT NULL, since BIGINT NOT NULL, skipped BIGINT NOT NULL DEFAULT 0);
   CREATE TABLE rehearsal_checks (check_name ${KEY} PRIMARY KEY, seen BIGINT NOT NULL, agreed BIGINT NOT NULL, diverged BIGINT NOT NULL,
     last_at BIGINT NOT NULL);
   CREATE TABLE rehearsal_divergences (seq BIGSERIAL PRIMARY KEY, check_name ${KEY}, at BIGINT NOT NULL, data TEXT NOT NULL);`,
  // 5: every committed write to what the servers cache (configuration, credentials, sessions) notifies them, one
  // notification per table and transaction (PostgreSQL folds repeats), delivered only once it committed. Rerunnable.
  `CREATE OR REPLACE FUNCTION ${STORE_SCHEMA}.notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_notify('${CHANGES_CHANNEL}', TG_TABLE_NAME); RETURN NULL; END $$;
   ${['v2_resources', 'users', 'api_keys', 'auth_sessions']
     .map(
       (t) =>
         `DROP TRIGGER IF EXISTS ${t}_changes ON ${t}; CREATE TRIGGER ${t}_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION ${STORE_SCHEMA}.notify_change();`,
     )
     .join('\n')}`,
];

const PG_STORE_VERSION = PG_STORE_MIGRATIONS.length;

/**
 * Creates or migrates the tables, one server at a time (a transaction-scoped advisory lock: two servers starting
 * together wait for each other). A newer schema is refused and left untouched. Returns the version found.
 */
export function migrateStore(db: SyncPostgres): number {
  return db.transaction(() => {
    db.exec(`SELECT pg_advisory_xact_lock(hashtextextended('${STORE_SCHEMA} migration', 0));
      CREATE SCHEMA IF NOT EXISTS ${STORE_SCHEMA};
      SET LOCAL search_path TO ${STORE_SCHEMA};
      CREATE TABLE IF NOT EXISTS store_schema (version INTEGER NOT NULL);`);
    const version = Number((db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM store_schema').get() as { v: number }).v);
    if (version > PG_STORE_VERSION) {
      throw new CheckbridgeError('CB_STORE_NEWER', `${db.name} (schema ${STORE_SCHEMA}) has schema version ${version}, this binary knows ${PG_STORE_VERSION}`);
    }
    for (let v = version + 1; v <= PG_STORE_VERSION; v++) {
      db.exec(PG_STORE_MIGRATIONS[v - 1]!);
      db.exec(`DELETE FROM store_schema; INSERT INTO store_schema VALUES (${v})`);
    }
    return version;
  })();
}

export function storeSchemaVersion(db: SyncPostgres): number {
  return Number((db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM store_schema').get() as { v: number }).v);
}
