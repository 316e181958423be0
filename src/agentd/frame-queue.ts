// Frames of every session are parsed in arrival order, at most BYTES_PER_TURN of them an event-loop turn (one frame
// at least), and a large frame alone until it is stored: the intake's turn then holds one large event, not six, and
// the listeners answer between them.
const BYTES_PER_TURN = 256 * 1024;
const LARGE_FRAME = 64 * 1024;

interface Job {
  readonly bytes: number;
  readonly run: () => Promise<void>;
}

/** The agents' frames waiting to be parsed, drained a byte budget per turn. */
export class FrameQueue {
  private jobs: Job[] = [];
  private next = 0;
  private scheduled = false;

  push(bytes: number, run: () => Promise<void>): void {
    this.jobs.push({ bytes, run });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  private readonly drain = (): void => {
    let spent = 0;
    while (this.next < this.jobs.length && spent < BYTES_PER_TURN) {
      const job = this.jobs[this.next++]!;
      spent += job.bytes;
      const done = job.run();
      if (job.bytes >= LARGE_FRAME) return void done.finally(() => this.resume());
    }
    this.resume();
  };

  private resume(): void {
    if (this.next >= this.jobs.length) return void ([this.jobs, this.next, this.scheduled] = [[], 0, false]);
    // A queue that never empties is cut from its front now and then, not left to grow.
    if (this.next > 1024) [this.jobs, this.next] = [this.jobs.slice(this.next), 0];
    setImmediate(this.drain);
  }
}
