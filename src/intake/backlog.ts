// How much the intake holds that is not yet committed, and the doors' backpressure on it: past HIGH_WATER the doors
// that can refuse answer "come back later" and the agent door stops reading; below LOW_WATER they are let in again.
// A store that is slow or away (PostgreSQL across a network) then bounds what waits in memory instead of growing it.
export const HIGH_WATER = 2_000;
export const LOW_WATER = 1_000;
/** What a refused caller is told to wait before sending again (seconds). */
export const RETRY_AFTER_S = 1;

/** A submission refused because the intake is full: the door answers it as its protocol says (503 with Retry-After). */
export class IntakeFull extends Error {
  readonly retryAfterS = RETRY_AFTER_S;
  constructor() {
    super('the intake is full: the store is behind, try again shortly');
    this.name = 'IntakeFull';
  }
}

export class Backlog {
  private committing = 0;
  private pushedBack = false;
  private readonly drained: (() => void)[] = [];

  constructor(private readonly waiting: () => number) {}

  get size(): number {
    return this.waiting() + this.committing;
  }

  /** Whether the doors push back now. */
  get full(): boolean {
    if (this.size >= HIGH_WATER) this.pushedBack = true;
    return this.pushedBack && this.size > LOW_WATER;
  }

  /** Hears when the doors may let submissions in again, after they were pushed back. */
  onDrained(listener: () => void): void {
    this.drained.push(listener);
  }

  started(items: number): void {
    this.committing += items;
  }

  ended(items: number): void {
    this.committing -= items;
    if (!this.pushedBack || this.size > LOW_WATER) return;
    this.pushedBack = false;
    for (const listener of this.drained) listener();
  }
}
