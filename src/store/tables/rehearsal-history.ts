import type { SqlDatabase, SqlStatement } from '../sql/database.js';

/** What the rehearsal saw of one event, as the history keeps it. */
export interface RehearsedEvent {
  readonly check: string;
  readonly at: number;
  /** Null when Sensu Go would have done the same; else what differed (JSON-ready). */
  readonly divergence: Record<string, unknown> | null;
}

export interface RehearsedCheck {
  readonly check: string;
  readonly seen: number;
  readonly agreed: number;
  readonly diverged: number;
  readonly last_at: number;
  /** The first divergences kept for this check, oldest first. */
  readonly first: Record<string, unknown>[];
}

export interface RehearsalReport {
  /** The digest of the configuration the history is about, or null before the first event. */
  readonly configuration: string | null;
  readonly since: number | null;
  /** Events not rehearsed (the sandbox busy, too many waiting) since the configuration. */
  readonly skipped: number;
  readonly checks: RehearsedCheck[];
}

// Bounded: so many first divergences per check, so many checks (any name may arrive on the socket), so many rows in all.
export const FIRST_PER_CHECK = 10;
const MAX_CHECKS = 5_000;
const MAX_DIVERGENCES = 20_000;

/** The rehearsal's history: per check the events seen, agreeing and diverging, and its first divergences; reset when the configuration changes. */
export class RehearsalHistory {
  private readonly s: Record<string, SqlStatement>;

  constructor(private readonly db: SqlDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      state: p('SELECT configuration, since, skipped FROM rehearsal_state WHERE id = 1'),
      skip: p('UPDATE rehearsal_state SET skipped = skipped + ? WHERE id = 1'),
      setState: p(
        'INSERT INTO rehearsal_state (id, configuration, since, skipped) VALUES (1, ?, ?, 0) ON CONFLICT (id) DO UPDATE SET configuration = excluded.configuration, ' +
          'since = excluded.since, skipped = 0',
      ),
      clearChecks: p('DELETE FROM rehearsal_checks'),
      clearDivergences: p('DELETE FROM rehearsal_divergences'),
      checkCount: p('SELECT COUNT(*) AS n FROM rehearsal_checks'),
      divergenceCount: p('SELECT COUNT(*) AS n FROM rehearsal_divergences'),
      known: p('SELECT diverged FROM rehearsal_checks WHERE check_name = ?'),
      count: p(
        'INSERT INTO rehearsal_checks (check_name, seen, agreed, diverged, last_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (check_name) DO UPDATE SET ' +
          'seen = rehearsal_checks.seen + excluded.seen, agreed = rehearsal_checks.agreed + excluded.agreed, ' +
          'diverged = rehearsal_checks.diverged + excluded.diverged, last_at = excluded.last_at',
      ),
      keep: p('INSERT INTO rehearsal_divergences (check_name, at, data) VALUES (?, ?, ?)'),
      checks: p('SELECT check_name AS "check", seen, agreed, diverged, last_at FROM rehearsal_checks ORDER BY check_name'),
      divergences: p('SELECT check_name AS "check", data FROM rehearsal_divergences ORDER BY seq'),
    };
  }

  /** The configuration the history is about: a different one empties it first. True when it was emptied. */
  begin(configuration: string, nowMs: number): boolean {
    const state = this.s.state.get() as { configuration: string } | undefined;
    if (state?.configuration === configuration) return false;
    this.db.transaction(() => {
      this.s.clearChecks.run();
      this.s.clearDivergences.run();
      this.s.setState.run(configuration, nowMs);
    })();
    return true;
  }

  /** One batch of rehearsed events, and how many were skipped meanwhile, in one transaction. */
  record(events: readonly RehearsedEvent[], skipped = 0): void {
    if (events.length === 0 && skipped === 0) return;
    const byCheck = new Map<string, { seen: number; agreed: number; diverged: number; at: number; kept: RehearsedEvent[] }>();
    for (const e of events) {
      let entry = byCheck.get(e.check);
      if (!entry) byCheck.set(e.check, (entry = { seen: 0, agreed: 0, diverged: 0, at: e.at, kept: [] }));
      entry.seen++;
      entry.at = Math.max(entry.at, e.at);
      if (e.divergence) {
        entry.diverged++;
        entry.kept.push(e);
      } else entry.agreed++;
    }
    this.db.transaction(() => {
      if (skipped > 0) this.s.skip.run(skipped);
      // The tables are counted only when a bound may apply (a check not seen yet, a divergence to keep), not on every batch.
      let checks: number | null = null;
      let rows: number | null = null;
      for (const [check, entry] of byCheck) {
        const known = this.s.known.get(check) as { diverged: number } | undefined;
        if (!known) {
          checks ??= Number((this.s.checkCount.get() as { n: number }).n);
          if (checks >= MAX_CHECKS) continue;
          checks++;
        }
        this.s.count.run(check, entry.seen, entry.agreed, entry.diverged, entry.at);
        let stored = Number(known?.diverged ?? 0);
        for (const e of entry.kept) {
          if (stored >= FIRST_PER_CHECK) break;
          rows ??= Number((this.s.divergenceCount.get() as { n: number }).n);
          if (rows >= MAX_DIVERGENCES) break;
          this.s.keep.run(check, e.at, JSON.stringify(e.divergence));
          stored++;
          rows++;
        }
      }
    })();
  }

  report(): RehearsalReport {
    const state = this.s.state.get() as { configuration: string; since: number; skipped: number } | undefined;
    const first = new Map<string, Record<string, unknown>[]>();
    for (const row of this.s.divergences.all() as { check: string; data: string }[]) {
      const list = first.get(row.check) ?? [];
      list.push(JSON.parse(row.data) as Record<string, unknown>);
      first.set(row.check, list);
    }
    const checks = (this.s.checks.all() as Omit<RehearsedCheck, 'first'>[]).map((c) => ({
      check: c.check,
      seen: Number(c.seen),
      agreed: Number(c.agreed),
      diverged: Number(c.diverged),
      last_at: Number(c.last_at),
      first: first.get(c.check) ?? [],
    }));
    return { configuration: state?.configuration ?? null, since: state ? Number(state.since) : null, skipped: Number(state?.skipped ?? 0), checks };
  }
}
