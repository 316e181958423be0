// The v2 event and entity rows of a PostgreSQL group commit: read once for the batch (see BatchRows), kept as the batch
// writes them, and in its first run sent set-based at COMMIT (SetWrites) rather than a statement per write.
import type { SqlDatabase } from '../sql/database.js';
import { SharedResourceTables } from './shared-resources.js';
import { v2Key, type BatchRows } from './batch-rows.js';
import type { Entity, Event } from '../../v2/index.js';
import type { ReadRows } from '../tables/event-reads.js';

/** The batch the store holds now, and whether its writes wait for COMMIT (a group commit's first run). */
export interface BatchAccess {
  rows(): BatchRows | null;
  buffering(): boolean;
  /**
   * Runs a write of a v2 row outside any group commit (the API's) holding the row's lock, as group commits take it: one
   * that read the row under its lock cannot then write over this write with what it read before.
   */
  locked<T>(key: string, write: () => T): T;
  /** Reads awaited without blocking the thread (the reader connection): the API's reads of events and entities. */
  readonly readRows?: ReadRows;
}

// A kept row holds what the batch wrote under its key: the caller's type names that.
const parse = <T>(data: string | null) => (data === null ? null : (JSON.parse(data) as T));

/** Over the configuration caches of a shared store (SharedResourceTables): both hold for PostgreSQL. */
export class BatchedResourceTables extends SharedResourceTables {
  constructor(
    db: SqlDatabase,
    private readonly access: BatchAccess,
  ) {
    super(db);
    this.readRows = access.readRows ?? null;
  }

  override getEvent(namespace: string, entity: string, check: string): Event | null {
    const kept = this.access.rows()?.v2Events.get(v2Key(namespace, entity, check));
    return kept !== undefined ? parse<Event>(kept) : super.getEvent(namespace, entity, check);
  }

  override putEvent(namespace: string, entity: string, check: string, event: Event, rememberState = false): void {
    const rows = this.access.rows();
    const key = v2Key(namespace, entity, check);
    if (rows && this.access.buffering()) {
      rows.v2Events.set(key, JSON.stringify(event));
      rows.pending.v2Events.set(key, [namespace, entity, check]);
      return;
    }
    if (!rows) return this.access.locked(key, () => super.putEvent(namespace, entity, check, event, rememberState));
    super.putEvent(namespace, entity, check, event, rememberState);
    rows.v2Events.set(key, JSON.stringify(event));
  }

  override deleteEvent(namespace: string, entity: string, check: string): boolean {
    const rows = this.access.rows();
    const key = v2Key(namespace, entity, check);
    const kept = rows?.v2Events.get(key);
    if (rows && kept !== undefined && this.access.buffering()) {
      rows.v2Events.set(key, null);
      rows.pending.v2Events.set(key, [namespace, entity, check]);
      return kept !== null;
    }
    if (!rows) return this.access.locked(key, () => super.deleteEvent(namespace, entity, check));
    const removed = super.deleteEvent(namespace, entity, check);
    rows.v2Events.set(key, null);
    return removed;
  }

  override getEntity(namespace: string, name: string): Entity | null {
    const kept = this.access.rows()?.v2Entities.get(v2Key(namespace, name));
    return kept !== undefined ? parse<Entity>(kept) : super.getEntity(namespace, name);
  }

  override putEntity(namespace: string, name: string, entity: Entity): void {
    const rows = this.access.rows();
    const key = v2Key(namespace, name);
    if (rows && this.access.buffering()) {
      const data = JSON.stringify(entity);
      // Unchanged: not written, so the row keeps the version it was read with (and the cache stays right).
      if (rows.v2Entities.get(key) === data) return;
      rows.v2Entities.set(key, data);
      rows.pending.v2Entities.set(key, [namespace, name]);
      return;
    }
    if (!rows) return this.access.locked(key, () => super.putEntity(namespace, name, entity));
    super.putEntity(namespace, name, entity);
    rows.v2Entities.set(key, JSON.stringify(entity));
  }

  override deleteEntity(namespace: string, name: string): boolean {
    const rows = this.access.rows();
    const key = v2Key(namespace, name);
    const kept = rows?.v2Entities.get(key);
    if (rows && kept !== undefined && this.access.buffering()) {
      rows.v2Entities.set(key, null);
      rows.pending.v2Entities.set(key, [namespace, name]);
      return kept !== null;
    }
    if (!rows) return this.access.locked(key, () => super.deleteEntity(namespace, name));
    const removed = super.deleteEntity(namespace, name);
    rows.v2Entities.set(key, null);
    return removed;
  }
}
