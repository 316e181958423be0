// Agents' client records marked disconnected as their sessions end: a turn's closes in one unit of work, so that a
// thousand agents going away at once is one commit, and the thread never waits on the store's network for them.
import type { Logger } from 'pino';
import { TurnBatch, type StateStore } from '../store/index.js';
import { markConnected } from './entity.js';

interface Mark {
  readonly name: string;
  /** Still without a session when the unit runs (an agent that came back meanwhile stays connected). */
  readonly gone: () => boolean;
}

export class DisconnectMarks {
  private readonly pending = new TurnBatch<Mark>((marks) => this.write(marks));

  constructor(
    private readonly store: StateStore,
    private readonly logger: Logger,
  ) {}

  mark(name: string, gone: () => boolean): void {
    this.pending.add({ name, gone });
  }

  /** Resolves once every mark so far is committed (or logged as not). */
  flushed(): Promise<void> {
    return this.pending.flushed();
  }

  private write(marks: Mark[]): Promise<void> {
    const names = [...new Set(marks.map(({ name }) => name))];
    const work = () => {
      for (const { name, gone } of marks) if (gone()) markConnected(this.store, name, false);
    };
    return this.store
      .unit({ pairs: [], clients: names }, work, () => undefined)
      .catch((error: unknown) => {
        // Only the dashboard's `connected` flag: the keepalive monitor still sees the agent go quiet.
        this.logger.warn({ err: error, agents: names.length }, 'agents not marked disconnected');
      });
  }
}
