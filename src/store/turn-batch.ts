/** Collects what is submitted during one turn of the event loop and hands it over as one batch: the unit of group commit. */
export class TurnBatch<T> {
  private queue: T[] = [];
  private scheduled = false;

  constructor(private readonly flush: (batch: T[]) => void) {}

  add(item: T): void {
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.queue;
      this.queue = [];
      this.flush(batch);
    });
  }
}
