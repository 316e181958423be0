// Rows a queued unit will need, read while it waits for a connection: the unit then finds them in the row cache and
// commits in one round trip instead of two. Only while every unit connection is busy (a free one would read them at
// once anyway); one read in flight at a time on the store's reader connection, keys arriving meanwhile go in the next one.
import type { V2Keys } from '../state-store.js';
import type { RowCache } from './row-cache.js';
import type { KeyIndex } from './key-index.js';
import { UnitPlan } from './unit-of-work.js';
import type { UnitPostgres } from './unit-connection.js';

/** The most keys one read names: its statements are written out, and one round trip should stay small. */
const MAX_KEYS = 2_000;

export class ReadAhead {
  private events: (readonly [string, string, string])[] = [];
  private entities: (readonly [string, string])[] = [];
  private reading = false;
  private scheduled = false;
  /** Reads sent and rows kept, for the store's figures and tests. */
  readonly counts = { reads: 0, rows: 0 };

  constructor(
    private readonly cache: RowCache,
    /** Rows known absent are not read ahead: their units read nothing. */
    private readonly index: KeyIndex,
    /** Its connection: the store's reader (opened on first use, closed with the store). */
    private readonly lanes: { reader(): UnitPostgres },
    /** Units submitted and not settled, and how many run at once: while all run, one submitted now waits. */
    private readonly units: { readonly size: number; readonly lanes: number },
    /** Why PostgreSQL is out of reach, or null: nothing is read then. */
    private readonly away: () => string | null,
  ) {}

  /** Reads these rows soon, those the cache lacks, if units are queued (`keysOf` is asked only then). */
  want(keysOf: () => V2Keys): void {
    // A free connection reads a unit's rows at once: reading them ahead too would only double the read.
    if (this.units.size < this.units.lanes || this.events.length + this.entities.length >= MAX_KEYS) return;
    const keys = keysOf();
    this.events.push(...keys.events);
    this.entities.push(...keys.entities);
    this.schedule();
  }

  /** The key index is read once, in the background; until then every row a unit's cache lacks is read. */
  readIndex(): void {
    if (!this.index.ready && this.away() === null) void this.index.load((sql) => this.lanes.reader().requestAsync({ sql, simple: true, multi: true }));
  }

  private schedule(): void {
    if (this.scheduled || this.reading) return;
    this.scheduled = true;
    // The keys of a turn's submissions go together.
    setImmediate(() => {
      this.scheduled = false;
      void this.readWaiting();
    });
  }

  private async readWaiting(): Promise<void> {
    const v2 = { events: this.events, entities: this.entities };
    [this.events, this.entities] = [[], []];
    const plan = new UnitPlan({ pairs: [], v2 }, this.cache, this.index);
    if (plan.reads === null || plan.reads.length === 0 || this.away() !== null) return;
    this.reading = true;
    try {
      const { results = [] } = await this.lanes.reader().requestAsync({ sql: plan.reads.join(';\n'), simple: true, multi: true });
      this.counts.reads++;
      this.counts.rows += plan.keepRead(plan.batchOf(results));
    } catch {
      // A read ahead that fails costs nothing: the unit reads its rows itself.
    } finally {
      this.reading = false;
      if (this.events.length + this.entities.length > 0) this.schedule();
    }
  }
}
