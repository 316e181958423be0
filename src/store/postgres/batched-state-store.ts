// The legacy tables of a PostgreSQL group commit: rows read once for the batch (BatchRows) are served from it, and in
// its first run the writes wait in it to be sent set-based at COMMIT (postgres-state-store.ts sends them).
import { SqlStateStore, type ResultRow } from '../sql/sql-state-store.js';
import { pairKey, type BatchRows } from './batch-rows.js';

export abstract class BatchedStateStore extends SqlStateStore {
  /** A group commit's rows, while one runs. */
  protected abstract batch: BatchRows | null;
  /** Whether writes wait for COMMIT, kept in the batch. */
  protected abstract buffering(): boolean;
  /** Drops what the batch holds, after sending what it has not sent. */
  protected abstract dropBatch(): void;

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
