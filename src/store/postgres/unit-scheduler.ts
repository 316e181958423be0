// Units of work in flight together, one per connection of a few: a round trip's wait is shared by several units, not
// paid by each in turn. A unit sharing a key with an earlier unit waits for it (a row's writes keep their order, and a
// unit reads what the one before it wrote); a unit naming no key waits for every earlier one.

/** A unit waiting this long for PostgreSQL makes the store degraded (`/health`). */
const SLOW_MS = 3_000;

interface Entry {
  /** Its keys; null: every key (it waits for all before it, and all after it wait for it). */
  readonly keys: ReadonlySet<string> | null;
  readonly done: Promise<void>;
  /** When it got its connection (null: waiting still). */
  since: number | null;
}

const overlaps = (a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): boolean => {
  if (a === null || b === null) return true;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) return true;
  return false;
};

export class UnitScheduler {
  /** Units submitted and not yet settled, in submission order. */
  private readonly entries = new Set<Entry>();
  private readonly free: number[];
  private readonly waitingForLane: ((lane: number) => void)[] = [];

  constructor(readonly lanes: number) {
    this.free = Array.from({ length: lanes }, (_, i) => lanes - 1 - i);
  }

  /** Runs `unit` on a free connection (its index), once every earlier unit sharing a key with it has settled. */
  run<T>(keys: ReadonlySet<string> | null, unit: (lane: number) => Promise<T>): Promise<T> {
    const before = [...this.entries].filter((entry) => overlaps(entry.keys, keys)).map((entry) => entry.done);
    let settle!: () => void;
    const entry: Entry = { keys, done: new Promise<void>((resolve) => (settle = resolve)), since: null };
    this.entries.add(entry);
    const turn = (async () => {
      try {
        await Promise.all(before);
        const lane = await this.lane();
        entry.since = Date.now();
        try {
          return await unit(lane);
        } finally {
          this.release(lane);
        }
      } finally {
        this.entries.delete(entry);
        settle();
      }
    })();
    return turn;
  }

  /** Units submitted and not settled (in flight or waiting). */
  get size(): number {
    return this.entries.size;
  }

  /** Why the store counts as slow now (a unit in flight has waited too long), or null. */
  waiting(): string | null {
    let oldest = Infinity;
    for (const { since } of this.entries) if (since !== null && since < oldest) oldest = since;
    const waited = oldest === Infinity ? 0 : Date.now() - oldest;
    return waited > SLOW_MS ? `a group commit has waited ${Math.round(waited / 1000)} s for PostgreSQL` : null;
  }

  private lane(): Promise<number> {
    const lane = this.free.pop();
    if (lane !== undefined) return Promise.resolve(lane);
    return new Promise((resolve) => this.waitingForLane.push(resolve));
  }

  private release(lane: number): void {
    const next = this.waitingForLane.shift();
    if (next) next(lane);
    else this.free.push(lane);
  }
}
