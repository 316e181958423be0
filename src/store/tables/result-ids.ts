import type { SqlDatabase, SqlStatement } from '../sql/database.js';

// A table of its own, created if absent and never versioned: servers of an older binary on the same database keep running.
// Created only when absent: a role that does not own an existing table may still open the store.
export const CREATE_RESULT_IDS_PG = `DO $$ BEGIN IF to_regclass('result_ids') IS NULL THEN
     CREATE TABLE result_ids (id TEXT COLLATE "C" PRIMARY KEY, seen BIGINT NOT NULL);
     CREATE INDEX result_ids_by_seen ON result_ids (seen);
   END IF; END $$;`;

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
    if (!shared) p('CREATE TEMP TABLE IF NOT EXISTS result_ids (id TEXT PRIMARY KEY, seen INTEGER NOT NULL) WITHOUT ROWID').run();
    this.s = {
      // In id order: two servers claiming the same ids wait on each other in one order, never in a deadlock.
      claim: shared
        ? p('INSERT INTO result_ids (id, seen) SELECT id, ? FROM unnest(?::text[]) AS t (id) ORDER BY id ON CONFLICT (id) DO NOTHING RETURNING id')
        : p('INSERT INTO temp.result_ids (id, seen) VALUES (?, ?) ON CONFLICT (id) DO NOTHING'),
      release: shared ? p('DELETE FROM result_ids WHERE id = ANY(?::text[])') : p('DELETE FROM temp.result_ids WHERE id = ?'),
      prune: shared ? p('DELETE FROM result_ids WHERE seen < ?') : p('DELETE FROM temp.result_ids WHERE seen < ?'),
    };
  }

  /**
   * Inside the transaction that stores these results: records each id as handled and returns those already recorded,
   * committed by this or another server (a server storing the same id waits here until its transaction ended).
   */
  claim(ids: readonly string[], nowMs: number): Set<string> {
    if (ids.length === 0) return new Set();
    if (!this.shared) return new Set(ids.filter((id) => this.s.claim.run(id, nowMs).changes === 0));
    const fresh = new Set((this.s.claim.all(nowMs, [...ids]) as { id: string }[]).map((row) => row.id));
    return new Set(ids.filter((id) => !fresh.has(id)));
  }

  /** Ids claimed in this transaction whose results failed: a copy of one may still be handled. */
  release(ids: readonly string[]): void {
    if (ids.length === 0) return;
    if (this.shared) this.s.release.run([...ids]);
    else for (const id of ids) this.s.release.run(id);
  }

  /** Forgets the ids recorded before `beforeMs`; how many. */
  prune(beforeMs: number): number {
    return this.s.prune.run(beforeMs).changes;
  }
}
