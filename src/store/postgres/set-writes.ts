// A group commit's writes on PostgreSQL as set-based statements: one per table and kind, each key once (its last
// write), rows in key order and tables in one fixed order, so that two servers' transactions lock rows alike.
import type { SqlDatabase, SqlStatement } from '../sql/database.js';
import type { BatchRows } from './batch-rows.js';

type Row = Record<string, unknown>;

const SQL = {
  clients: 'INSERT INTO clients (name, data) SELECT * FROM unnest(?::text[], ?::text[]) ON CONFLICT (name) DO UPDATE SET data = excluded.data',
  results:
    'INSERT INTO results (client, check_name, data, history, last_ok) SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[]) ' +
    'ON CONFLICT (client, check_name) DO UPDATE SET data = excluded.data, history = excluded.history, last_ok = excluded.last_ok',
  putEvents:
    'INSERT INTO events (client, check_name, data) SELECT * FROM unnest(?::text[], ?::text[], ?::text[]) ON CONFLICT (client, check_name) DO UPDATE SET data = excluded.data',
  deleteEvents: 'DELETE FROM events e USING unnest(?::text[], ?::text[]) AS k (client, check_name) WHERE e.client = k.client AND e.check_name = k.check_name',
  // An unchanged entity is left as it is (no page written), as the per-row write does.
  putEntities:
    'INSERT INTO v2_entities (namespace, name, data) SELECT * FROM unnest(?::text[], ?::text[], ?::text[]) ' +
    'ON CONFLICT (namespace, name) DO UPDATE SET data = excluded.data WHERE v2_entities.data IS DISTINCT FROM excluded.data',
  deleteEntities: 'DELETE FROM v2_entities e USING unnest(?::text[], ?::text[]) AS k (namespace, name) WHERE e.namespace = k.namespace AND e.name = k.name',
  putV2Events:
    'INSERT INTO v2_events (namespace, entity, check_name, data) SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) ' +
    'ON CONFLICT (namespace, entity, check_name) DO UPDATE SET data = excluded.data',
  deleteV2Events:
    'DELETE FROM v2_events e USING unnest(?::text[], ?::text[], ?::text[]) AS k (namespace, entity, check_name) ' +
    'WHERE e.namespace = k.namespace AND e.entity = k.entity AND e.check_name = k.check_name',
};

/** Columns of the written rows (key parts, then data) and of the deleted keys, in key order. */
function columnsOf<K extends readonly string[]>(keys: Map<string, K>, rows: Map<string, string | null>, width: number) {
  const put: unknown[][] = Array.from({ length: width + 1 }, () => []);
  const gone: unknown[][] = Array.from({ length: width }, () => []);
  for (const key of [...keys.keys()].sort()) {
    const parts = keys.get(key)!;
    const data = rows.get(key);
    const into = data === null || data === undefined ? gone : put;
    parts.forEach((part, i) => into[i]!.push(part));
    if (into === put) put[width]!.push(data);
  }
  return { put, gone };
}

export class SetWrites {
  private readonly s: Record<keyof typeof SQL, SqlStatement>;

  constructor(db: SqlDatabase) {
    this.s = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<keyof typeof SQL, SqlStatement>;
  }

  /** Sends what `batch` wrote and has not sent (inside its transaction, deferred: together, with the next statement). */
  send(batch: BatchRows): void {
    const { pending } = batch;
    if (pending.size === 0) return;
    const clients = columnsOf(pending.clients, batch.clients, 1);
    if (clients.put[0]!.length > 0) this.s.clients.run(...(clients.put as string[][]));
    this.sendResults(batch);
    const events = columnsOf(pending.events, batch.events, 2);
    if (events.put[0]!.length > 0) this.s.putEvents.run(...(events.put as string[][]));
    if (events.gone[0]!.length > 0) this.s.deleteEvents.run(...(events.gone as string[][]));
    const entities = columnsOf(pending.v2Entities, batch.v2Entities, 2);
    if (entities.put[0]!.length > 0) this.s.putEntities.run(...(entities.put as string[][]));
    if (entities.gone[0]!.length > 0) this.s.deleteEntities.run(...(entities.gone as string[][]));
    const v2 = columnsOf(pending.v2Events, batch.v2Events, 3);
    if (v2.put[0]!.length > 0) this.s.putV2Events.run(...(v2.put as string[][]));
    if (v2.gone[0]!.length > 0) this.s.deleteV2Events.run(...(v2.gone as string[][]));
    pending.clear();
  }

  private sendResults(batch: BatchRows): void {
    const columns: unknown[][] = [[], [], [], [], []];
    for (const key of [...batch.pending.results.keys()].sort()) {
      const row = batch.results.get(key) as Row;
      ['client', 'check_name', 'data', 'history', 'last_ok'].forEach((name, i) => columns[i]!.push(row[name] ?? null));
    }
    if (columns[0]!.length > 0) this.s.results.run(...(columns as string[][]));
  }
}
