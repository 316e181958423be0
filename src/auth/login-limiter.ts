/** Failed logins per client address in a sliding window; past the limit, logins from that address wait (429). */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly maxFailures = 20,
    private readonly windowMs = 60_000,
    // Bounded so that a spray from many addresses cannot grow memory without end.
    private readonly maxAddresses = 10_000,
  ) {}

  /** Seconds to wait before trying again, or 0 when this address may try now. */
  retryAfter(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - this.now()) / 1000));
  }

  recordFailure(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    this.failures.delete(address);
    this.failures.set(address, recent);
    if (this.failures.size > this.maxAddresses) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(address: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(address) ?? []).filter((at) => at > since);
  }
}
