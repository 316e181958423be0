import type { Clock, TimerHandle } from './clock.js';
import { nextInstant, type Timing } from './plan.js';
import { nextCronInstant } from '../time/index.js';

interface Entry {
  timing: Timing;
  handle: TimerHandle | null;
}

/**
 * Fires each named job at its wall-clock instants. Every instant is computed from the phase, never by
 * chaining delays, so there is no drift; instants missed while the process was stopped are skipped.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly fire: (name: string, at: number) => void,
  ) {}

  /** Adds or reschedules a job. */
  set(name: string, timing: Timing): void {
    this.remove(name);
    const entry: Entry = { timing, handle: null };
    this.entries.set(name, entry);
    const first = nextInstant(timing, this.clock.now());
    if (first !== null) this.arm(name, entry, first);
  }

  remove(name: string): void {
    this.entries.get(name)?.handle?.cancel();
    this.entries.delete(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  stop(): void {
    for (const name of [...this.entries.keys()]) this.remove(name);
  }

  private arm(name: string, entry: Entry, at: number): void {
    entry.handle = this.clock.at(at, () => {
      if (this.entries.get(name) !== entry) return;
      this.fire(name, at);
      const now = this.clock.now();
      let next: number;
      if (entry.timing.kind === 'interval') {
        next = at + entry.timing.intervalMs;
        if (next <= now) next += Math.ceil((now - next + 1) / entry.timing.intervalMs) * entry.timing.intervalMs;
      } else if (entry.timing.kind === 'cron') {
        next = nextCronInstant(entry.timing.schedule, Math.max(at, now));
      } else {
        return;
      }
      if (this.entries.get(name) === entry) this.arm(name, entry, next);
    });
  }
}
