// The blocking group commit's reads (the fallback of a unit that could not run optimistically): its batch's rows, one
// statement per table, read under the locks it already holds.
import type { SqlStatement } from '../sql/database.js';
import type { V2Keys } from '../state-store.js';
import { BatchRows, pairKey, v2Key } from './batch-rows.js';
import { READS } from './unit-of-work.js';

type Row = Record<string, unknown>;
export type BatchStatements = Record<
  'lockResults' | 'lockTimeout' | 'batchClients' | 'batchResults' | 'batchEvents' | 'batchV2Events' | 'batchV2Entities',
  SqlStatement
>;

/** The locks and the reads, prepared once. */
export function batchStatements(prepare: (sql: string) => SqlStatement): BatchStatements {
  return {
    // Transaction-scoped locks, taken in one global order (sorted keys): two servers never deadlock on them.
    lockResults: prepare(
      'SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(key, 0) AS k FROM unnest(?::text[]) AS key ORDER BY k) AS keys',
    ),
    // A write outside a group commit waits this long for a row's lock, no longer (its thread waits with it).
    lockTimeout: prepare("SET LOCAL lock_timeout = '250ms'"),
    // The unit's reads (each row with its version, unused here), run one at a time.
    batchClients: prepare(READS.clients),
    batchResults: prepare(READS.results),
    batchEvents: prepare(READS.events),
    batchV2Events: prepare(READS.v2Events),
    batchV2Entities: prepare(READS.v2Entities),
  };
}

/** The rows `pairs` (with their clients) and `v2` name, each table read once; a key without a row is kept as absent. */
export function readBatchBlocking(s: BatchStatements, pairs: readonly (readonly [string, string])[], v2: V2Keys): BatchRows {
  const batch = new BatchRows();
  const clients = pairs.map(([client]) => client);
  const checks = pairs.map(([, check]) => check);
  for (const name of clients) batch.clients.set(name, null);
  for (const [client, check] of pairs) {
    batch.results.set(pairKey(client, check), null);
    batch.events.set(pairKey(client, check), null);
  }
  if (pairs.length > 0) {
    for (const row of s.batchClients.all(clients) as Row[]) batch.clients.set(String(row.name), String(row.data));
    for (const row of s.batchResults.all(clients, checks) as Row[]) batch.results.set(pairKey(String(row.client), String(row.check_name)), row);
    for (const row of s.batchEvents.all(clients, checks) as Row[]) batch.events.set(pairKey(String(row.client), String(row.check_name)), String(row.data));
  }
  readV2(s, batch, v2);
  return batch;
}

/** The v2 events and entities `v2` names, each read once (one statement per table) into `batch`. */
function readV2(s: BatchStatements, batch: BatchRows, { events, entities }: V2Keys): void {
  for (const [ns, entity, check] of events) batch.v2Events.set(v2Key(ns, entity, check), null);
  for (const [ns, name] of entities) batch.v2Entities.set(v2Key(ns, name), null);
  if (events.length > 0) {
    const rows = s.batchV2Events.all(...[0, 1, 2].map((i) => events.map((key) => key[i]!))) as Row[];
    for (const row of rows) batch.v2Events.set(v2Key(String(row.namespace), String(row.entity), String(row.check_name)), String(row.data));
  }
  if (entities.length > 0) {
    const rows = s.batchV2Entities.all(...[0, 1].map((i) => entities.map((key) => key[i]!))) as Row[];
    for (const row of rows) batch.v2Entities.set(v2Key(String(row.namespace), String(row.name)), String(row.data));
  }
}
