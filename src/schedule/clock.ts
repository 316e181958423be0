// Time is injected: nothing that a test must control calls Date.now() directly.
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn` at the wall-clock instant `at` (epoch ms), or at once if it has passed. */
  at(at: number, fn: () => void): TimerHandle;
}

/** A clock that is read, not armed: what a module that only stamps or compares instants takes. */
export type ReadClock = Pick<Clock, 'now'>;

// Long delays are re-armed in steps so a suspended machine or a clock step cannot stretch them.
const MAX_STEP_MS = 60_000;

export const systemClock: Clock = {
  now: () => Date.now(),
  at(at, fn) {
    let timer: NodeJS.Timeout;
    let cancelled = false;
    const arm = () => {
      const delay = at - Date.now();
      if (delay <= 0) return void fn();
      timer = setTimeout(() => !cancelled && arm(), Math.min(delay, MAX_STEP_MS));
      timer.unref?.();
    };
    arm();
    return { cancel: () => ((cancelled = true), clearTimeout(timer)) };
  },
};

/** A clock that moves only when told to; timers fire in instant order. */
export class ManualClock implements Clock {
  private current: number;
  private timers: { at: number; seq: number; fn: () => void; live: boolean }[] = [];
  private seq = 0;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  at(at: number, fn: () => void): TimerHandle {
    const timer = { at, seq: this.seq++, fn, live: true };
    this.timers.push(timer);
    return { cancel: () => void (timer.live = false) };
  }

  /** Advances to `to`, firing due timers in order (timers they add fire too if due). */
  advanceTo(to: number): void {
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= to).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      due.live = false;
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.timers = this.timers.filter((t) => t.live);
    this.current = Math.max(this.current, to);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.current + ms);
  }
}
