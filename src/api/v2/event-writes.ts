import type { SqliteStore } from '../../store/index.js';
import type { Publish } from '../../v2/events-service.js';

interface Pending {
  readonly write: () => Publish;
  readonly resolve: (outcome: Publish) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Event writes to the embedded store arriving in the same turn share one SQLite transaction (group commit), each in
 * its own savepoint: one that throws fails alone. A write resolves only after its transaction committed.
 */
export class EventWriteGroup {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly store: SqliteStore) {}

  /** `write` runs synchronously inside the group's transaction. */
  submit(write: () => Publish): Promise<Publish> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const settled: (() => void)[] = [];
    try {
      this.store.transaction(() => {
        for (const { write, resolve, reject } of batch) {
          try {
            const outcome = this.store.transaction(write);
            settled.push(() => resolve(outcome));
          } catch (error) {
            // Some failures (a full database) end the whole transaction, not just the savepoint: the group fails with them.
            if (!this.store.db.inTransaction) throw error;
            settled.push(() => reject(error));
          }
        }
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const settle of settled) settle();
  }
}
