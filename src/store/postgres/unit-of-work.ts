// A group commit on PostgreSQL as one unit of work that never blocks the thread on the network: round trip 1 opens the
// transaction and reads the batch's rows (with each row's version, xmin); the batch is processed synchronously over
// them; round trip 2 takes the batch's locks, checks that no row read changed meanwhile, writes set-based and commits.
// A row another writer changed between the two fails the check: the unit runs again over fresh rows (optimistic), so
// no lock is held while the thread is free, and two servers never wait on each other's event loops.
import type { SqlDatabase, SqlStatement } from '../sql/database.js';
import type { UnitKeys } from '../state-store.js';
import { BatchRows, pairKey, v2Key } from './batch-rows.js';
import { inline, toPositional } from './placeholders.js';
import { PostgresQueryError } from './query-error.js';
import type { SyncRows } from './statement-runner.js';
import type { RowCache } from './row-cache.js';
import type { KeyIndex } from './key-index.js';

type Row = Record<string, unknown>;

/** Each table's rows of a batch's keys, with their versions. */
export const READS = {
  clients: 'SELECT name, data, xmin::text AS seen FROM clients WHERE name = ANY(?::text[])',
  results:
    'SELECT r.client, r.check_name, r.data, r.history, r.last_ok, r.xmin::text AS seen FROM results r JOIN unnest(?::text[], ?::text[]) AS k (client, check_name) ' +
    'ON r.client = k.client AND r.check_name = k.check_name',
  events:
    'SELECT e.client, e.check_name, e.data, e.xmin::text AS seen FROM events e JOIN unnest(?::text[], ?::text[]) AS k (client, check_name) ' +
    'ON e.client = k.client AND e.check_name = k.check_name',
  v2Events:
    'SELECT v.namespace, v.entity, v.check_name, v.data, v.xmin::text AS seen FROM v2_events v JOIN unnest(?::text[], ?::text[], ?::text[]) AS k (namespace, entity, check_name) ' +
    'ON v.namespace = k.namespace AND v.entity = k.entity AND v.check_name = k.check_name',
  v2Entities:
    'SELECT e.namespace, e.name, e.data, e.xmin::text AS seen FROM v2_entities e JOIN unnest(?::text[], ?::text[]) AS k (namespace, name) ' +
    'ON e.namespace = k.namespace AND e.name = k.name',
};

const CONFLICT = 'checkbridge: rows changed under a group commit';
// A count cast to int fails only when it is not zero (an aggregate: never folded at planning time); the failure aborts the unit.
const changed = (from: string) => `SELECT (CASE WHEN count(*) > 0 THEN '${CONFLICT}: ' || count(*) END)::int FROM ${from}`;
const CHECKS = {
  clients: changed(`unnest(?::text[], ?::text[]) AS k (name, seen) LEFT JOIN clients t ON t.name = k.name WHERE coalesce(t.xmin::text, '') <> k.seen`),
  results: changed(
    `unnest(?::text[], ?::text[], ?::text[]) AS k (client, check_name, seen) LEFT JOIN results t ON t.client = k.client AND t.check_name = k.check_name WHERE coalesce(t.xmin::text, '') <> k.seen`,
  ),
  events: changed(
    `unnest(?::text[], ?::text[], ?::text[]) AS k (client, check_name, seen) LEFT JOIN events t ON t.client = k.client AND t.check_name = k.check_name WHERE coalesce(t.xmin::text, '') <> k.seen`,
  ),
  v2Events: changed(
    `unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS k (namespace, entity, check_name, seen) LEFT JOIN v2_events t ` +
      `ON t.namespace = k.namespace AND t.entity = k.entity AND t.check_name = k.check_name WHERE coalesce(t.xmin::text, '') <> k.seen`,
  ),
  v2Entities: changed(
    `unnest(?::text[], ?::text[], ?::text[]) AS k (namespace, name, seen) LEFT JOIN v2_entities t ON t.namespace = k.namespace AND t.name = k.name WHERE coalesce(t.xmin::text, '') <> k.seen`,
  ),
};

type Table = keyof typeof READS;
const TABLES = Object.keys(READS) as Table[];

/** The keys a unit's locks are taken on, as the pessimistic path names them (a client's name, `client/check`, `v2/…`). */
export function lockKeysOf({ pairs, clients = [], v2 = { events: [], entities: [] } }: UnitKeys): string[] {
  const names = [...new Set([...pairs.map(([client]) => client), ...clients])];
  return [
    ...pairs.map(([client, check]) => `${client}/${check}`),
    ...names,
    ...v2.events.map((key) => `v2/${v2Key(...key)}`),
    ...v2.entities.map((key) => `v2/${v2Key(...key)}`),
  ];
}

/** A unit's keys as a set, for units in flight together; null for a unit naming none (it goes alone). */
export function unitKeySet(keys: UnitKeys): ReadonlySet<string> | null {
  const list = lockKeysOf(keys);
  return list.length === 0 ? null : new Set(list);
}

/** Whether a unit failed because a row it read changed before it committed: it runs again. */
export const isConflict = (error: unknown): boolean => error instanceof PostgresQueryError && error.message.includes(CONFLICT);

/** The statements a unit sends besides its reads: the version checks, prepared once on the store's connection. */
export class UnitChecks {
  private readonly s: Record<Table, SqlStatement>;

  constructor(db: SqlDatabase) {
    this.s = Object.fromEntries(TABLES.map((table) => [table, db.prepare(CHECKS[table])])) as Record<Table, SqlStatement>;
  }

  /** Deferred inside the unit's transaction (after its locks): they travel with its writes. */
  send(plan: UnitPlan): void {
    for (const table of TABLES) {
      const columns = plan.seen[table];
      if (columns[0]!.length > 0) this.s[table].run(...(columns as string[][]));
    }
  }
}

/** One unit's keys: the rows to read (those the cache lacks), the rows read, and what the checks compare them with. */
export class UnitPlan {
  /** Round trip 1's statements, values written in: none when the cache had every row (null: a value has no literal). */
  readonly reads: string[] | null;
  /** Per table, the key columns then each key's version as read ('' for a row that was absent). */
  readonly seen: Record<Table, string[][]>;
  /** Keys of the advisory locks round trip 2 takes, as the pessimistic path names them. */
  readonly lockKeys: string[];
  private readonly order: Table[] = [];
  /** Rows taken as absent without a read (the key index has none): the read ahead learnt nothing of them. */
  private readonly assumed = new Set<string>();
  /** Per table, each key once: its key string and its columns. */
  private readonly keys: Record<Table, Map<string, string[]>>;

  constructor(
    { pairs, clients = [], v2 = { events: [], entities: [] } }: UnitKeys,
    private readonly cache: RowCache,
    private readonly index: KeyIndex | null = null,
  ) {
    const names = [...new Set([...pairs.map(([client]) => client), ...clients])];
    const byKey = (rows: readonly (readonly string[])[], key: (parts: readonly string[]) => string) => new Map(rows.map((parts) => [key(parts), [...parts]]));
    const pair = byKey(pairs, ([client, check]) => pairKey(client!, check!));
    this.keys = {
      clients: byKey(
        names.map((name) => [name]),
        ([name]) => name!,
      ),
      results: pair,
      events: pair,
      v2Events: byKey(v2.events, (parts) => v2Key(...parts)),
      v2Entities: byKey(v2.entities, (parts) => v2Key(...parts)),
    };
    this.seen = Object.fromEntries(TABLES.map((table) => [table, []])) as unknown as Record<Table, string[][]>;
    const reads: (string | null)[] = [];
    for (const table of TABLES) {
      const missing: string[][] = [];
      for (const [key, parts] of this.keys[table]) {
        if (cache.get(table, key)) continue;
        if (index?.absent(table, key)) this.assumed.add(`${table}\u0000${key}`);
        else missing.push(parts);
      }
      if (missing.length === 0) continue;
      this.order.push(table);
      const columns = missing[0]!.map((_, i) => missing.map((parts) => parts[i]!));
      reads.push(inline(toPositional(READS[table]), columns));
    }
    // A unit naming no row still asks PostgreSQL first: its processing then never starts on a store out of reach.
    if (TABLES.every((table) => this.keys[table].size === 0)) reads.push('SELECT 1');
    this.reads = reads.every((read) => read !== null) ? (reads as string[]) : null;
    this.lockKeys = lockKeysOf({ pairs, clients, v2 });
  }

  /** The rows read (and those the cache had), as the batch the unit's processing reads and writes; each key's version kept. */
  batchOf(results: readonly SyncRows[]): BatchRows {
    const batch = new BatchRows();
    const found = new Map<string, string>();
    this.order.forEach((table, i) => {
      for (const row of results[i]?.rows ?? []) {
        const { seen, ...rest } = row as Row;
        const key = keyOf(table, rest);
        found.set(`${table}\u0000${key}`, String(seen));
        keep(batch, table, key, rest);
      }
    });
    for (const table of TABLES) {
      const width = table === 'clients' ? 1 : table === 'v2Events' ? 3 : 2;
      const columns: string[][] = Array.from({ length: width + 1 }, () => []);
      for (const [key, parts] of this.keys[table]) {
        const cached = this.cache.get(table, key);
        const map = rowsOf(batch, table);
        if (cached) map.set(key, cached.value);
        else if (!map.has(key)) map.set(key, null);
        parts.forEach((part, i) => columns[i]!.push(part));
        columns[width]!.push(cached ? cached.seen : (found.get(`${table}\u0000${key}`) ?? ''));
      }
      this.seen[table] = columns;
    }
    return batch;
  }

  /** After COMMIT (`xid`: the transaction's id, every row it wrote has it): what the batch holds is what PostgreSQL holds. */
  remember(batch: BatchRows, written: WrittenKeys, xid: string | null): void {
    for (const table of TABLES) {
      const map = rowsOf(batch, table);
      for (const [key, value, version] of this.rowsRead(batch, table)) {
        if (value !== null) this.index?.present(table, key);
        if (!written[table].has(key)) this.cache.set(table, key, value, version);
      }
      for (const key of written[table]) {
        if (map.get(key) !== null) this.index?.present(table, key);
        if (xid === null) this.cache.drop(table, key);
        else this.cache.set(table, key, map.get(key) ?? null, map.get(key) === null ? '' : xid);
      }
    }
  }

  /**
   * After a read outside any unit (read ahead): each row read is cached with its version, unless the cache has one
   * meanwhile (a unit's commit, newer). A row stale by then fails its unit's check and is read again. Answers how many.
   */
  keepRead(batch: BatchRows): number {
    let kept = 0;
    for (const table of TABLES) {
      for (const [key, value, version] of this.rowsRead(batch, table)) {
        if (value !== null) this.index?.present(table, key);
        // Taken as absent without a read: nothing was learnt of it.
        if (this.cache.get(table, key) || this.assumed.has(`${table}\u0000${key}`)) continue;
        this.cache.set(table, key, value, version);
        kept++;
      }
    }
    return kept;
  }

  /** Each of the unit's keys of `table`: its row as the batch holds it, and its version as read (see `batchOf`). */
  private *rowsRead(batch: BatchRows, table: Table): Generator<[key: string, value: unknown, version: string]> {
    const map = rowsOf(batch, table);
    const seen = this.seen[table];
    const versions = seen[seen.length - 1] ?? [];
    let n = 0;
    for (const [key] of this.keys[table]) yield [key, map.get(key) ?? null, versions[n++]!];
  }

  /** A unit that did not commit, or whose rows changed: none of its rows is trusted. */
  forget(written?: WrittenKeys): void {
    for (const table of TABLES) {
      // A row believed absent (assumed: its version is '' too, read or cached so) may be what changed: the next run reads it.
      const versions = this.seen[table][this.seen[table].length - 1] ?? [];
      let n = 0;
      for (const [key] of this.keys[table]) {
        if (versions[n++] === '') this.index?.present(table, key);
        this.cache.drop(table, key);
      }
      for (const key of written?.[table] ?? []) this.cache.drop(table, key);
    }
  }
}

/** The keys a unit wrote, per table (taken before its writes are sent). */
export type WrittenKeys = Record<Table, ReadonlySet<string>>;

export function writtenKeys(batch: BatchRows): WrittenKeys {
  const { pending } = batch;
  return {
    clients: new Set(pending.clients.keys()),
    results: new Set(pending.results.keys()),
    events: new Set(pending.events.keys()),
    v2Events: new Set(pending.v2Events.keys()),
    v2Entities: new Set(pending.v2Entities.keys()),
  };
}

function keyOf(table: Table, row: Row): string {
  if (table === 'clients') return String(row.name);
  if (table === 'results' || table === 'events') return pairKey(String(row.client), String(row.check_name));
  if (table === 'v2Events') return v2Key(String(row.namespace), String(row.entity), String(row.check_name));
  return v2Key(String(row.namespace), String(row.name));
}

const rowsOf = (batch: BatchRows, table: Table): Map<string, unknown> => batch[table] as Map<string, unknown>;

function keep(batch: BatchRows, table: Table, key: string, row: Row): void {
  if (table === 'results') batch.results.set(key, row);
  else rowsOf(batch, table).set(key, String(row.data));
}
