import type { Logger } from 'pino';
import type { ReadClock } from '../schedule/index.js';

// A connection's first refusals are logged one by one; past them they are counted and said once a minute (and at its end).
const LOGGED_EACH = 10;
const SUMMARY_MS = 60_000;
// No agent sends this many frames that are not frames: a connection that does is closed (1008), not read further.
export const GARBAGE_LIMIT = 1_000;

/** One connection's refused messages: logged up to a bound, then counted, so a flood of them cannot flood the log. */
export class RefusalLog {
  private said = 0;
  private unsaid = 0;
  private total = 0;
  private garbage = 0;
  private lastSummaryMs = 0;

  constructor(
    private readonly logger: Logger,
    private readonly clock: ReadClock,
    private readonly fields: Record<string, unknown>,
  ) {}

  /** Logs or counts one refusal; true exactly when the connection's malformed frames reach GARBAGE_LIMIT. */
  note(message: string, extra: Record<string, unknown>, malformed: boolean): boolean {
    this.total += 1;
    if (this.said < LOGGED_EACH) {
      this.said += 1;
      this.logger.warn({ ...this.fields, ...extra }, message);
      if (this.said === LOGGED_EACH) this.quiet();
    } else {
      this.unsaid += 1;
      if (this.clock.now() - this.lastSummaryMs >= SUMMARY_MS) this.summarize();
    }
    if (malformed) this.garbage += 1;
    return malformed && this.garbage === GARBAGE_LIMIT;
  }

  /** Says how many refusals went unlogged since the last summary (at the connection's end, and once a minute). */
  summarize(): void {
    if (this.unsaid === 0) return;
    this.logger.warn({ ...this.fields, refused: this.unsaid, total: this.total }, 'agent messages refused (counted, not logged one by one)');
    this.unsaid = 0;
    this.lastSummaryMs = this.clock.now();
  }

  private quiet(): void {
    this.lastSummaryMs = this.clock.now();
    this.logger.warn({ ...this.fields, logged: LOGGED_EACH }, 'agent messages refused: further refusals of this connection are counted and said once a minute');
  }
}
