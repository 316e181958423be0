import type { Logger } from 'pino';
import type { StateStore } from '../store/index.js';
import { RESULT_ID_RETENTION_MS } from '../legacy/index.js';
import type { CheckResult } from '../execute/index.js';
import type { ReadClock } from '../schedule/index.js';

/**
 * The intake's step against re-sent results: an id a client gave a result is claimed in the transaction that stores
 * it, so a copy (re-sent after a broker outage, reaching this server or another) is answered without being handled again.
 */
export class ResultCopies {
  private pruning: NodeJS.Timeout | undefined;
  private dropped = 0;

  constructor(
    private readonly store: StateStore,
    private readonly clock: ReadClock,
    private readonly log: Logger,
  ) {}

  start(): void {
    // Once a minute, outside any group commit: the ids past their retention are forgotten.
    this.pruning = setInterval(() => this.prune(), 60_000).unref();
  }

  stop(): void {
    clearInterval(this.pruning);
  }

  /** Inside the group commit: the items whose result id was handled before (by any server) or comes twice in `items`. */
  claim<T>(items: readonly T[], resultOf: (item: T) => CheckResult | null): Set<T> {
    const first = new Map<string, T>();
    const copies = new Set<T>();
    for (const item of items) {
      const id = resultOf(item)?.id;
      if (id === undefined) continue;
      if (first.has(id)) copies.add(item);
      else first.set(id, item);
    }
    for (const id of this.store.resultIds.claim([...first.keys()], this.clock.now())) copies.add(first.get(id)!);
    return copies;
  }

  /** These results failed: their ids are forgotten, so that a copy or a redelivery of one is still handled. */
  release(results: readonly CheckResult[]): void {
    this.store.resultIds.release(results.flatMap((result) => (result.id ? [result.id] : [])));
  }

  /** As `release`, after the transaction: a failure is logged, not thrown. */
  releaseQuietly(results: readonly CheckResult[]): void {
    try {
      this.release(results);
    } catch (error) {
      this.log.warn({ err: error }, 'failed to forget the ids of failed results: a copy of one will be dropped');
    }
  }

  /** Counted and logged once their transaction committed. */
  droppedCommitted(results: readonly CheckResult[]): void {
    if (results.length === 0) return;
    this.dropped += results.length;
    const ids = results.slice(0, 20).map((result) => result.id);
    this.log.info({ dropped: results.length, total: this.dropped, ids }, 'dropped copies of results already handled');
    this.log.debug({ ids: results.map((result) => result.id) }, 'copies dropped');
  }

  private prune(): void {
    try {
      this.store.resultIds.prune(this.clock.now() - RESULT_ID_RETENTION_MS);
    } catch (error) {
      this.log.warn({ err: error }, 'failed to forget old result ids: tried again in a minute');
    }
  }
}
