// A batch smaller than this waits up to WAIT_TURNS more turns for company: results sent one per connection arrive a
// turn or two apart, and a commit each cost more than the wait (measured: 5,000 → 7,400 results/s, 8 senders).
const SMALL = 8;
const WAIT_TURNS = 4;
/** The most one batch takes: its processing is synchronous, and a larger one would hold the event loop too long. */
export const MAX_BATCH = 1000;

/**
 * Collects what is submitted during a turn of the event loop (a few, when it is small) and hands it over as one batch:
 * the unit of group commit. A flush that returns a promise is the batch in flight: the next one forms meanwhile and
 * is handed over when it settles (one in flight at a time, in order).
 */
export class TurnBatch<T> {
  private queue: T[] = [];
  private scheduled = false;
  private busy = false;
  private waited = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly flush: (batch: T[]) => unknown) {}

  /** Items waiting for a batch, and whether one is in flight: what a door's backpressure reads. */
  get waiting(): number {
    return this.queue.length;
  }

  add(item: T): void {
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    this.waited = 0;
    if (!this.busy) setImmediate(this.turn);
  }

  /** Resolves once what was added so far has been handed over and committed (at once when nothing waits): for a clean stop. */
  flushed(): Promise<void> {
    if (!this.scheduled && !this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private readonly turn = (): void => {
    if (this.queue.length < SMALL && this.waited < WAIT_TURNS) {
      this.waited++;
      setImmediate(this.turn);
      return;
    }
    const batch = this.queue.length > MAX_BATCH ? this.queue.splice(0, MAX_BATCH) : this.queue;
    if (batch === this.queue) {
      this.queue = [];
      this.scheduled = false;
    }
    const idle = this.scheduled ? [] : this.idle;
    if (!this.scheduled) this.idle = [];
    const done = this.flush(batch);
    if (!(done instanceof Promise)) return this.after(idle);
    this.busy = true;
    const settled = () => {
      this.busy = false;
      this.after(idle);
    };
    done.then(settled, settled);
  };

  /** After a batch: its waiters answered, and the next batch (formed meanwhile) handed over at once. */
  private after(idle: (() => void)[]): void {
    for (const resolve of idle) resolve();
    if (!this.scheduled) {
      // Who asked while the batch was in flight, with nothing after it: all handed over and committed.
      if (!this.busy) for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.waited = WAIT_TURNS;
    if (!this.busy) setImmediate(this.turn);
  }
}
