import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import type { CheckResult } from '../execute/result.js';
import { GroupRetry, type SqliteStore } from '../store/index.js';
import type { Clock } from '../schedule/clock.js';
import type { ResultIntake } from './intake.js';
import { processResult, resultKey, type Processed } from './processor.js';
import { EntityLimitError } from './entity-limit.js';
import { TurnBatch } from '../store/turn-batch.js';

interface Pending {
  readonly result: CheckResult;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Results become events in the store. Submissions arriving in the same turn share one transaction
 * (group commit): a submit resolves only after its transaction committed, never on a timer.
 */
export class StoreIntake implements ResultIntake {
  private readonly pending = new TurnBatch<Pending>((batch) => this.commit(batch));
  private readonly listeners: ((processed: Processed, result: CheckResult) => void)[] = [];
  private readonly committers: ((processed: Processed) => void)[] = [];
  private readonly afterCommits: ((committed: boolean) => Promise<void>)[] = [];
  private readonly log: Logger;

  constructor(
    private readonly store: SqliteStore,
    private settings: () => Settings,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'intake' });
  }

  onEvent(listener: (processed: Processed, result: CheckResult) => void): void {
    this.listeners.push(listener);
  }

  /** Runs inside the transaction that stores the event: what it writes commits with the event, or not at all. */
  withinTransaction(writer: (processed: Processed) => void): void {
    this.committers.push(writer);
  }

  /**
   * Runs once the group's transaction ended (`committed` false when it rolled back): the PostgreSQL event store's batch.
   * Results are answered only after it settles, and fail if it fails: an `ok` means committed where events live.
   */
  afterCommit(hook: (committed: boolean) => Promise<void>): void {
    this.afterCommits.push(hook);
  }

  /** Resolves once every result submitted so far has gone to its group commit: before the store closes. */
  flushed(): Promise<void> {
    return this.pending.flushed();
  }

  submit(result: CheckResult): Promise<void> {
    return new Promise((resolve, reject) => this.pending.add({ result, resolve, reject }));
  }

  /** One result in its own savepoint (see `store.savepoint`): a throw undoes and fails this result only, never its neighbours. */
  private processOne(settings: Settings, result: CheckResult): { processed: Processed | null; error: Error | null } {
    try {
      return this.store.savepoint(() => {
        const outcome = processResult(this.store, settings, result, this.clock.now());
        if (!outcome.ok) return { processed: null, error: outcome.code === 'CB_ENTITY_LIMIT' ? new EntityLimitError(outcome.reason) : new Error(outcome.reason) };
        for (const writer of this.committers) writer(outcome.processed);
        return { processed: outcome.processed, error: null };
      });
    } catch (error) {
      // Some failures (a full database) end the whole transaction, not just the savepoint: the group fails with them.
      if (!this.store.db.inTransaction || error instanceof GroupRetry) throw error;
      return { processed: null, error: error as Error };
    }
  }

  // One line per refused client name, not one per result: a fleet past the limit would flood the log.
  private readonly refusedClients = new Set<string>();
  private refuseOnce(result: CheckResult, error: Error): void {
    const name = typeof result.check.source === 'string' && result.check.source !== '' ? result.check.source : result.client;
    if (this.refusedClients.has(name) || this.refusedClients.size >= 10_000) return;
    this.refusedClients.add(name);
    this.log.warn({ client: name }, error.message);
  }

  private commit(batch: Pending[]): void {
    const done: { pending: Pending; processed: Processed | null; error: Error | null }[] = [];
    try {
      const settings = this.settings();
      this.store.groupCommit(
        () => {
          this.store.lockResults(batch.map((pending) => resultKey(pending.result)));
          for (const pending of batch) done.push({ pending, ...this.processOne(settings, pending.result) });
        },
        () => {
          done.length = 0;
          for (const hook of this.afterCommits) void hook(false);
        },
      );
    } catch (error) {
      for (const hook of this.afterCommits) void hook(false);
      // A failure that ends the whole transaction (a full database) undid every result of the group: each one
      // again in a transaction of its own, so that only the results that fail alone are failed. Not on PostgreSQL:
      // there the failure is a lost connection, and a COMMIT cut off may have committed — those results get an error.
      if (batch.length > 1 && this.store.sqlite) return batch.forEach((pending) => this.commit([pending]));
      this.log.error({ err: error, results: batch.length }, 'failed to store results');
      for (const pending of batch) pending.reject(error as Error);
      return;
    }
    if (this.afterCommits.length === 0) return this.settle(done);
    Promise.all(this.afterCommits.map((hook) => hook(true))).then(
      () => this.settle(done),
      (error: Error) => {
        this.log.error({ err: error, results: batch.length }, 'failed to store events');
        this.settle(done.map((entry) => ({ ...entry, error: entry.error ?? error })));
      },
    );
  }

  private settle(done: { pending: Pending; processed: Processed | null; error: Error | null }[]): void {
    for (const { pending, processed, error } of done) {
      if (error instanceof EntityLimitError) {
        this.refuseOnce(pending.result, error);
        pending.reject(error);
        continue;
      }
      if (error) {
        this.log.warn({ err: error, client: pending.result.client, check: pending.result.check.name }, error.message);
        pending.reject(error);
        continue;
      }
      pending.resolve();
      for (const listener of this.listeners) listener(processed!, pending.result);
    }
  }
}
