import { systemClock, type ReadClock } from '../schedule/index.js';

/**
 * A token bucket as Go's rate.Limiter: `limit` tokens a second, at most `burst` saved up. `reserve` takes a token now
 * or books the next one and says how long to wait; a caller that cannot wait that long gives it back.
 */
export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limit: number,
    private readonly burst: number,
    private readonly clock: ReadClock = systemClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  private refill(): void {
    const at = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((at - this.last) / 1000) * this.limit);
    this.last = at;
  }

  /** Milliseconds to wait before the request may go (0: now); null when the wait would exceed `maxWaitMs`. */
  reserve(maxWaitMs: number): number | null {
    this.refill();
    const waitMs = this.tokens >= 1 ? 0 : ((1 - this.tokens) / this.limit) * 1000;
    if (waitMs > maxWaitMs) return null;
    this.tokens -= 1;
    return waitMs;
  }
}
