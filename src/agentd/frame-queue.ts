// Frames of every session are parsed in arrival order, at most BYTES_PER_TURN of them an event-loop turn (one frame
// at least): a flood of large frames is spread over turns, and the listeners answer between them.
const BYTES_PER_TURN = 1024 * 1024;

interface Job {
  readonly bytes: number;
  readonly run: () => void;
}

/** The agents' frames waiting to be parsed, drained a byte budget per turn. */
export class FrameQueue {
  private jobs: Job[] = [];
  private next = 0;
  private scheduled = false;

  constructor(private readonly bytesPerTurn = BYTES_PER_TURN) {}

  push(bytes: number, run: () => void): void {
    this.jobs.push({ bytes, run });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  private readonly drain = (): void => {
    let spent = 0;
    while (this.next < this.jobs.length && spent < this.bytesPerTurn) {
      const job = this.jobs[this.next++]!;
      spent += job.bytes;
      job.run();
    }
    if (this.next >= this.jobs.length) return void ([this.jobs, this.next, this.scheduled] = [[], 0, false]);
    // A queue that never empties is cut from its front now and then, not left to grow.
    if (this.next > 1024) [this.jobs, this.next] = [this.jobs.slice(this.next), 0];
    setImmediate(this.drain);
  };
}
