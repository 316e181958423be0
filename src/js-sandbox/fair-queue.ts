// Turns on the one sandbox thread, taken by namespace in rotation: each namespace has its own queue and its own rate
// of sandbox time, so one team's slow expressions wait behind each other, never in front of another team's.

export interface FairQueueLimits {
  /** Sandbox ms a namespace earns per second of wall clock. */
  readonly rateMs: number;
  /** The most a namespace may have saved up: what it may spend at once after a quiet while. */
  readonly burstMs: number;
  /** Evaluations a namespace may have waiting; more are refused. */
  readonly maxQueued: number;
}

interface Share {
  tokens: number;
  at: number;
  readonly waiting: (() => void)[];
}

export type Turn = 'granted' | 'refused';

export class FairQueue {
  // Insertion order is the rotation: a namespace served moves to the end.
  private readonly shares = new Map<string, Share>();
  private busy = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: FairQueueLimits,
    /** Called whenever a namespace with evaluations waiting has no sandbox time left. */
    private readonly throttled: (namespace: string) => void,
    // Monotonic performance.now, not a wall Clock: a time share must not grow or shrink when the system clock is stepped.
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves when it is this namespace's turn; `refused` when its queue is full. Each granted turn needs `release`. */
  acquire(namespace: string): Promise<Turn> {
    const share = this.share(namespace);
    if (share.waiting.length >= this.limits.maxQueued) return Promise.resolve('refused');
    return new Promise<Turn>((resolve) => {
      share.waiting.push(() => resolve('granted'));
      this.next();
    });
  }

  /** Ends a turn, charging the namespace what it spent. */
  release(namespace: string, spentMs: number): void {
    const share = this.share(namespace);
    share.tokens -= Math.max(0, spentMs);
    this.busy = false;
    this.next();
  }

  private share(namespace: string): Share {
    let share = this.shares.get(namespace);
    if (!share) this.shares.set(namespace, (share = { tokens: this.limits.burstMs, at: this.now(), waiting: [] }));
    return share;
  }

  private refill(share: Share, now: number): void {
    share.tokens = Math.min(this.limits.burstMs, share.tokens + ((now - share.at) * this.limits.rateMs) / 1000);
    share.at = now;
  }

  // The first namespace in rotation that waits and has time left gets the thread; else a timer for the earliest.
  private next(): void {
    if (this.busy) return;
    const now = this.now();
    let soonest = Infinity;
    for (const [namespace, share] of this.shares) {
      this.refill(share, now);
      if (share.waiting.length === 0) {
        if (share.tokens >= this.limits.burstMs) this.shares.delete(namespace);
        continue;
      }
      if (share.tokens > 0) {
        this.busy = true;
        this.shares.delete(namespace);
        this.shares.set(namespace, share);
        return share.waiting.shift()!();
      }
      soonest = Math.min(soonest, (-share.tokens * 1000) / this.limits.rateMs);
      this.throttled(namespace);
    }
    if (soonest !== Infinity && !this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          this.next();
        },
        Math.max(1, Math.ceil(soonest)),
      );
    }
  }
}
