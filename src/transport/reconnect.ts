/** Legacy reconnect rhythm: waits of 2, 4, 6 … s, growing by 2 s up to 20 s, then every 20 s. */
export class ReconnectRhythm {
  private gap = 0;

  /** The wait before the next attempt, in ms. */
  next(): number {
    this.gap = Math.min(this.gap + 2, 20);
    return this.gap * 1000;
  }

  reset(): void {
    this.gap = 0;
  }
}

/** A fresh shuffle of the failover entries, consumed one per attempt and reshuffled when used up. */
export class FailoverOrder<T> {
  private queue: T[] = [];

  constructor(private readonly entries: readonly T[]) {}

  next(): T {
    if (this.queue.length === 0) {
      this.queue = [...this.entries];
      for (let i = this.queue.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [this.queue[i], this.queue[j]] = [this.queue[j]!, this.queue[i]!];
      }
    }
    return this.queue.shift()!;
  }
}
