// A batch smaller than this waits up to WAIT_TURNS more turns for company: results sent one per connection arrive a
// turn or two apart, and a commit each cost more than the wait (measured: 5,000 → 7,400 results/s, 8 senders).
const SMALL = 8;
const WAIT_TURNS = 4;
/** The most one batch takes: its processing is synchronous, and a larger one would hold the event loop too long. */
export const MAX_BATCH = 1000;

/**
 * Collects what is submitted during a turn of the event loop (a few, when it is small) and hands it over as one batch:
 * the unit of group commit. A flush that returns a promise is a batch in flight: the next one forms meanwhile and is
 * handed over at once while fewer than `inFlight()` are in flight, else when one settles (in order of forming).
 */
export class TurnBatch<T> {
  private queue: T[] = [];
  private scheduled = false;
  private busy = 0;
  private waited = 0;
  private turnWaits = false;
  /** Items ever added, and handed over; the first item of each batch in flight (by their order of adding). */
  private added = 0;
  private handed = 0;
  private readonly flying = new Set<number>();
  private idle: { upTo: number; resolve: () => void }[] = [];

  constructor(
    private readonly flush: (batch: T[]) => unknown,
    private readonly inFlight: () => number = () => 1,
  ) {}

  /** Items waiting for a batch: what a door's backpressure reads. */
  get waiting(): number {
    return this.queue.length;
  }

  add(item: T): void {
    this.queue.push(item);
    this.added++;
    if (this.scheduled) return;
    this.scheduled = true;
    this.waited = 0;
    if (this.busy < this.inFlight()) this.nextTurn();
  }

  /** Resolves once what was added so far has been handed over and committed (at once when nothing waits): for a clean stop. */
  flushed(): Promise<void> {
    const upTo = this.added;
    if (this.committedUpTo() >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.idle.push({ upTo, resolve }));
  }

  /** Every item up to this one (by order of adding) has been handed over and its batch settled. */
  private committedUpTo(): number {
    let first = this.handed + 1;
    for (const start of this.flying) if (start < first) first = start;
    return first - 1;
  }

  /** One turn waits at a time, whoever asks for it. */
  private nextTurn(): void {
    if (this.turnWaits) return;
    this.turnWaits = true;
    setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    this.turnWaits = false;
    if (!this.scheduled || this.busy >= this.inFlight()) return;
    if (this.queue.length < SMALL && this.waited < WAIT_TURNS) {
      this.waited++;
      this.nextTurn();
      return;
    }
    const batch = this.queue.length > MAX_BATCH ? this.queue.splice(0, MAX_BATCH) : this.queue;
    if (batch === this.queue) {
      this.queue = [];
      this.scheduled = false;
    }
    const start = this.handed + 1;
    this.handed += batch.length;
    this.flying.add(start);
    const done = this.flush(batch);
    if (!(done instanceof Promise)) return this.after(start);
    this.busy++;
    const settled = () => {
      this.busy--;
      this.after(start);
    };
    done.then(settled, settled);
    // Room for another batch in flight: what waits goes at once.
    if (this.scheduled && this.busy < this.inFlight()) this.nextTurn();
  };

  /** After a batch: its waiters answered, and the next batch (formed meanwhile) handed over at once. */
  private after(start: number): void {
    this.flying.delete(start);
    const upTo = this.committedUpTo();
    const ready = this.idle.filter((waiter) => waiter.upTo <= upTo);
    if (ready.length > 0) this.idle = this.idle.filter((waiter) => waiter.upTo > upTo);
    for (const { resolve } of ready) resolve();
    if (!this.scheduled) return;
    this.waited = WAIT_TURNS;
    if (this.busy < this.inFlight()) this.nextTurn();
  }
}
