import type { SqliteStore } from '../../store/index.js';
import type { Publish } from '../../v2/events-service.js';
import { TurnBatch } from '../../store/turn-batch.js';
import { GroupRetry } from '../../store/sqlite/store.js';

interface Pending {
  readonly write: () => Publish;
  readonly resolve: (outcome: Publish) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Event writes to the embedded store arriving in the same turn share one SQLite transaction (group commit); one that
 * throws fails alone (the group runs again with a savepoint per write: see `store.groupCommit`). A write resolves only
 * after its transaction committed.
 */
export class EventWriteGroup {
  private readonly pending = new TurnBatch<Pending>((batch) => this.commit(batch));

  constructor(private readonly store: SqliteStore) {}

  /** `write` runs synchronously inside the group's transaction. */
  submit(write: () => Publish): Promise<Publish> {
    return new Promise((resolve, reject) => this.pending.add({ write, resolve, reject }));
  }

  private commit(batch: Pending[]): void {
    const settled: (() => void)[] = [];
    try {
      this.store.groupCommit(
        () => {
          for (const { write, resolve, reject } of batch) {
            try {
              const outcome = this.store.savepoint(write);
              settled.push(() => resolve(outcome));
            } catch (error) {
              if (!this.store.db.inTransaction || error instanceof GroupRetry) throw error;
              settled.push(() => reject(error));
            }
          }
        },
        () => {
          settled.length = 0;
        },
      );
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // A failure that ends the whole transaction (a full database) undid every write of the group: each one
      // again in a transaction of its own, so that only the writes that fail alone are failed.
      for (const pending of batch) this.commit([pending]);
      return;
    }
    for (const settle of settled) settle();
  }
}
