// The legacy tables of a PostgreSQL group commit: rows read once for the batch (BatchRows) are served from it, and in
// its first run the writes wait in it to be sent set-based at COMMIT (postgres-state-store.ts sends them). And the
// blocking group commit (what a unit falls back to): its locks taken first, its rows read under them.
import { SqlStateStore, type ResultRow } from '../sql/sql-state-store.js';
import type { V2Keys } from '../state-store.js';
import { pairKey, type BatchRows } from './batch-rows.js';
import { readBatchBlocking, type BatchStatements } from './blocking-batch-reads.js';
import { PostgresQueryError } from './query-error.js';
import { lockKeysOf } from './unit-of-work.js';

export abstract class BatchedStateStore extends SqlStateStore {
  /** A group commit's rows, while one runs. */
  protected abstract batch: BatchRows | null;
  /** Whether writes wait for COMMIT, kept in the batch. */
  protected abstract buffering(): boolean;
  /** Drops what the batch holds, after sending what it has not sent. */
  protected abstract dropBatch(): void;
  /** Sends the batch's pending writes (deferred: they travel with the next statement). */
  protected abstract sendPending(): void;
  /** The locks and the batch's blocking reads, prepared once. */
  protected locks!: BatchStatements;
  /** The statements' connection, whose savepoints the blocking group commit's first run does not wait for. */
  protected savepointsOf!: { awaitSavepoints: boolean };
  /** While a unit's processing runs: the advisory lock keys its round trip 2 takes. */
  protected unitLocks: Set<string> | null = null;

  lockResults(pairs: readonly (readonly [client: string, check: string])[], v2: V2Keys = { events: [], entities: [] }): void {
    // A unit has read its rows and takes their locks at its end.
    if (this.unitLocks) return;
    // Each client's own key too (a keepalive or another server's just-in-time client waits instead of overwriting,
    // batches sharing an entity queue on it), and the v2 rows' as a unit names them (a unit that read them waits).
    const keys = lockKeysOf({ pairs, v2 });
    if (keys.length > 0) this.locks.lockResults.all(keys);
    if (this.db.inTransaction && pairs.length + v2.events.length + v2.entities.length > 0) {
      this.sendPending();
      this.batch = readBatchBlocking(this.locks, pairs, v2);
      this.silences.snapshotUntilReset();
    }
  }

  lockClients(names: readonly string[]): void {
    if (names.length === 0) return;
    // Inside a unit, a client it did not name is locked before its next read (a deferred lock, no round trip of its own).
    if (this.unitLocks) {
      if (!names.every((name) => this.unitLocks!.has(name))) this.locks.lockResults.run([...names]);
      return;
    }
    this.locks.lockResults.all([...names]);
  }

  /**
   * The savepoints of the first run do not wait for their writes (the batch's writes travel together); should a write
   * fail, that run is rolled back whole and `fn` runs again with each savepoint waiting for its writes.
   */
  groupCommit<T>(fn: () => T, retrying: () => void): T {
    this.savepointsOf.awaitSavepoints = false;
    try {
      // The batch's writes go as a few set-based statements just before COMMIT, in the same transaction.
      return this.transaction(() => {
        const result = fn();
        this.sendPending();
        return result;
      });
    } catch (error) {
      if (!(error instanceof PostgresQueryError && error.transactionLost)) throw error;
    } finally {
      this.savepointsOf.awaitSavepoints = true;
    }
    retrying();
    return this.transaction(fn);
  }

  override getClient(name: string): Record<string, unknown> | null {
    const kept = this.batch?.clients.get(name);
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    return super.getClient(name);
  }

  protected override putClientData(name: string, data: string): void {
    if (this.buffering()) this.batch!.pending.clients.set(name, [name]);
    else super.putClientData(name, data);
    this.batch?.clients.set(name, data);
  }

  override deleteClient(name: string, tombstone?: { until: number | null }): void {
    this.dropBatch();
    super.deleteClient(name, tombstone);
  }

  override getResult(client: string, check: string): ReturnType<SqlStateStore['getResult']> {
    const kept = this.batch?.results.get(pairKey(client, check));
    return kept !== undefined ? this.storedResultOf(kept ?? undefined) : super.getResult(client, check);
  }

  override getHistory(client: string, check: string): ReturnType<SqlStateStore['getHistory']> {
    const kept = this.batch?.results.get(pairKey(client, check));
    return kept !== undefined ? this.historyOf(kept ?? undefined) : super.getHistory(client, check);
  }

  protected override putResultRow(row: ResultRow): void {
    if (this.buffering()) this.batch!.pending.results.set(pairKey(row.client, row.check_name), [row.client, row.check_name]);
    else super.putResultRow(row);
    this.batch?.results.set(pairKey(row.client, row.check_name), row);
  }

  override deleteResult(client: string, check: string): boolean {
    this.dropBatch();
    return super.deleteResult(client, check);
  }

  override deleteResultsOfCheck(check: string): void {
    this.dropBatch();
    super.deleteResultsOfCheck(check);
  }

  override getEvent(client: string, check: string): Record<string, unknown> | null {
    const kept = this.batch?.events.get(pairKey(client, check));
    if (kept !== undefined) return kept === null ? null : JSON.parse(kept);
    return super.getEvent(client, check);
  }

  protected override putEventData(client: string, check: string, data: string): void {
    if (this.buffering()) this.batch!.pending.events.set(pairKey(client, check), [client, check]);
    else super.putEventData(client, check, data);
    this.batch?.events.set(pairKey(client, check), data);
  }

  override deleteEvent(client: string, check: string): boolean {
    const key = pairKey(client, check);
    const kept = this.batch?.events.get(key);
    if (kept !== undefined && this.buffering()) {
      this.batch!.events.set(key, null);
      this.batch!.pending.events.set(key, [client, check]);
      return kept !== null;
    }
    const removed = super.deleteEvent(client, check);
    if (kept === undefined) return removed;
    this.batch!.events.set(key, null);
    return kept !== null;
  }
}
