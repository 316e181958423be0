import type { SqlDatabase, SqlStatement } from '../sql/database.js';

/** A result's id as a copy is recognised by: the same client's same check sent with the same id. */
export interface ResultIdKey {
  readonly client: string;
  readonly check: string;
  readonly id: string;
}

/** One string per key, for maps: a client or check name may hold any character, so the parts are JSON-quoted. */
export const resultIdKeyString = (key: ResultIdKey): string => JSON.stringify([key.client, key.check, key.id]);

// The ids handled lately, by client and check (PostgreSQL store migration 3). `result_ids`, keyed by id alone, is left
// for servers of an older binary still running on the same database.
export const CREATE_RESULT_CLAIMS_PG = `CREATE TABLE result_claims (client TEXT COLLATE "C" NOT NULL, check_name TEXT COLLATE "C" NOT NULL,
     id TEXT COLLATE "C" NOT NULL, seen BIGINT NOT NULL, PRIMARY KEY (client, check_name, id));
   CREATE INDEX result_claims_by_seen ON result_claims (seen);`;

type Row = { client: string; check_name: string; id: string };

/**
 * The ids of the results handled lately (a checkbridge client adds one to each result it may send again), written in the
 * transaction that stores the result: a copy of one, by whatever server it reaches, is then recognised and dropped.
 * On PostgreSQL a table all servers share; on SQLite (one server) a temporary table of the daemon's connection.
 */
export class ResultIds {
  private readonly s: Record<'claim' | 'release' | 'prune', SqlStatement>;

  constructor(
    db: SqlDatabase,
    private readonly shared: boolean,
  ) {
    const p = (sql: string) => db.prepare(sql);
    if (!shared)
      p(
        'CREATE TEMP TABLE IF NOT EXISTS result_claims (client TEXT NOT NULL, check_name TEXT NOT NULL, id TEXT NOT NULL, seen INTEGER NOT NULL, PRIMARY KEY (client, check_name, id)) WITHOUT ROWID',
      ).run();
    const keys = 'unnest(?::text[], ?::text[], ?::text[]) AS t (client, check_name, id)';
    this.s = {
      // In key order: two servers claiming the same keys wait on each other in one order, never in a deadlock.
      claim: shared
        ? p(
            `INSERT INTO result_claims (client, check_name, id, seen) SELECT client, check_name, id, ? FROM ${keys} ORDER BY client, check_name, id ON CONFLICT DO NOTHING RETURNING client, check_name, id`,
          )
        : p('INSERT INTO temp.result_claims (client, check_name, id, seen) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING'),
      release: shared
        ? p(`DELETE FROM result_claims WHERE (client, check_name, id) IN (SELECT client, check_name, id FROM ${keys})`)
        : p('DELETE FROM temp.result_claims WHERE client = ? AND check_name = ? AND id = ?'),
      prune: shared ? p('DELETE FROM result_claims WHERE seen < ?') : p('DELETE FROM temp.result_claims WHERE seen < ?'),
    };
  }

  /**
   * Inside the transaction that stores these results: records each key as handled and returns those already recorded
   * (as `resultIdKeyString`), committed by this or another server (a server storing the same key waits here until its
   * transaction ended).
   */
  claim(keys: readonly ResultIdKey[], nowMs: number): Set<string> {
    if (keys.length === 0) return new Set();
    if (!this.shared) return new Set(keys.filter((k) => this.s.claim.run(k.client, k.check, k.id, nowMs).changes === 0).map(resultIdKeyString));
    const rows = this.s.claim.all(nowMs, ...columns(keys)) as Row[];
    const fresh = new Set(rows.map((row) => resultIdKeyString({ client: row.client, check: row.check_name, id: row.id })));
    return new Set(keys.map(resultIdKeyString).filter((key) => !fresh.has(key)));
  }

  /** Keys claimed in this transaction whose results failed: a copy of one may still be handled. */
  release(keys: readonly ResultIdKey[]): void {
    if (keys.length === 0) return;
    if (this.shared) this.s.release.run(...columns(keys));
    else for (const k of keys) this.s.release.run(k.client, k.check, k.id);
  }

  /** Forgets the keys recorded before `beforeMs`; how many. */
  prune(beforeMs: number): number {
    return this.s.prune.run(beforeMs).changes;
  }
}

/** The keys as three parallel arrays, for `unnest`. */
function columns(keys: readonly ResultIdKey[]): [string[], string[], string[]] {
  return [keys.map((k) => k.client), keys.map((k) => k.check), keys.map((k) => k.id)];
}
