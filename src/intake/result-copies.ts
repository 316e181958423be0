import type { Logger } from 'pino';
import { resultIdKeyString, type ResultIdKey, type StateStore } from '../store/index.js';
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

  /**
   * Inside the group commit: claims the keys (client, check, id) of `items`' results. An item is a copy when its key was
   * handled before (by any server), or by an earlier item of the batch that succeeded: one that failed (a forged
   * signature) makes no copy of the next.
   */
  claim<T>(items: readonly T[], resultOf: (item: T) => CheckResult | null): BatchClaims<T> {
    const keys = new Map<T, ResultIdKey>();
    const unique = new Map<string, ResultIdKey>();
    for (const item of items) {
      const key = keyOf(resultOf(item));
      if (!key) continue;
      keys.set(item, key);
      unique.set(resultIdKeyString(key), key);
    }
    const before = this.store.resultIds.claim([...unique.values()], this.clock.now());
    return new BatchClaims(keys, before);
  }

  /** Keys claimed in the transaction whose results failed: a copy or a redelivery of one is still handled. */
  releaseKeys(keys: readonly ResultIdKey[]): void {
    this.store.resultIds.release(keys);
  }

  /** As `releaseKeys`, after the transaction: a failure is logged, not thrown. */
  releaseQuietly(keys: readonly ResultIdKey[]): void {
    try {
      this.releaseKeys(keys);
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

/** A result's key against copies: its client's, its check's, its id; none without an id. */
function keyOf(result: CheckResult | null): ResultIdKey | null {
  return result?.id === undefined ? null : { client: result.client, check: String(result.check.name), id: result.id };
}

/** One group commit's claims: which items are copies, given which were handled before them. */
export class BatchClaims<T> {
  private readonly handledKeys = new Set<string>();

  constructor(
    private readonly keys: ReadonlyMap<T, ResultIdKey>,
    private readonly before: ReadonlySet<string>,
  ) {}

  isCopy(item: T): boolean {
    const key = this.keys.get(item);
    if (!key) return false;
    const text = resultIdKeyString(key);
    return this.before.has(text) || this.handledKeys.has(text);
  }

  /** The keys claimed fresh under which a result was handled. */
  handled(): ResultIdKey[] {
    const out = new Map<string, ResultIdKey>();
    for (const key of this.keys.values()) if (this.handledKeys.has(resultIdKeyString(key))) out.set(resultIdKeyString(key), key);
    return [...out.values()];
  }

  /** `item` was handled (stored): a later item of the batch with its key is a copy. */
  handledItem(item: T): void {
    const key = this.keys.get(item);
    if (key) this.handledKeys.add(resultIdKeyString(key));
  }

  /** The keys this batch claimed fresh under which nothing was handled: to release. */
  unhandled(): ResultIdKey[] {
    const out = new Map<string, ResultIdKey>();
    for (const key of this.keys.values()) {
      const text = resultIdKeyString(key);
      if (!this.before.has(text) && !this.handledKeys.has(text)) out.set(text, key);
    }
    return [...out.values()];
  }
}
