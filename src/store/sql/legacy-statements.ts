import type { SqlDatabase, SqlStatement } from './database.js';

/** The legacy tables' statements (clients, results, events), the same SQL on both engines. */
export function prepareLegacyStatements(db: SqlDatabase) {
  const prepare = (sql: string): SqlStatement => db.prepare(sql);
  return {
    getClient: prepare('SELECT data FROM clients WHERE name = ?'),
    putClient: prepare('INSERT INTO clients (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data'),
    deleteClient: prepare('DELETE FROM clients WHERE name = ?'),
    listClients: prepare('SELECT data FROM clients ORDER BY name'),
    // What the v2 entity lists show: every namespace's entities, and each listed client in the legacy namespace (an
    // agent's client record mirrors its own entity, counted once, in its own namespace).
    countEntities: prepare(
      'SELECT COUNT(*) AS n FROM (SELECT namespace, name FROM v2_entities UNION ' +
        `SELECT CAST(? AS TEXT), name FROM clients WHERE data NOT LIKE '%"invalidated":true%' AND data NOT LIKE '%"entity_class":"agent"%' LIMIT ?) AS names`,
    ),
    getResult: prepare('SELECT client, data, history, last_ok FROM results WHERE client = ? AND check_name = ?'),
    getHistory: prepare('SELECT history, last_ok FROM results WHERE client = ? AND check_name = ?'),
    putResult: prepare(
      'INSERT INTO results (client, check_name, data, history, last_ok) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT(client, check_name) DO UPDATE SET data = excluded.data, history = excluded.history, last_ok = excluded.last_ok',
    ),
    deleteResult: prepare('DELETE FROM results WHERE client = ? AND check_name = ?'),
    deleteResultsOfCheck: prepare('DELETE FROM results WHERE check_name = ?'),
    deleteResultsOfClient: prepare('DELETE FROM results WHERE client = ?'),
    listResults: prepare('SELECT client, data, history, last_ok FROM results ORDER BY client, check_name'),
    listResultChecks: prepare('SELECT client, data FROM results ORDER BY client, check_name'),
    listResultsOf: prepare('SELECT client, data, history, last_ok FROM results WHERE client = ? ORDER BY check_name'),
    getEvent: prepare('SELECT data FROM events WHERE client = ? AND check_name = ?'),
    putEvent: prepare('INSERT INTO events (client, check_name, data) VALUES (?, ?, ?) ON CONFLICT(client, check_name) DO UPDATE SET data = excluded.data'),
    deleteEvent: prepare('DELETE FROM events WHERE client = ? AND check_name = ?'),
    listEvents: prepare('SELECT data FROM events ORDER BY client, check_name'),
    listEventsOf: prepare('SELECT data FROM events WHERE client = ? ORDER BY check_name'),
    deleteEventsOfClient: prepare('DELETE FROM events WHERE client = ?'),
  };
}

export type LegacyStatements = ReturnType<typeof prepareLegacyStatements>;
