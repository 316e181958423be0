// A group commit's rows on PostgreSQL: read once for the whole batch under its locks, then kept as the batch writes
// them, so that each result does not wait for a round trip per read. Dropped when a savepoint rolls back.
type Row = Record<string, unknown>;

/** Keys written and not yet sent (a group commit's first run), each with its key's columns: sent set-based at COMMIT. */
export class PendingWrites {
  readonly clients = new Map<string, readonly [name: string]>();
  readonly results = new Map<string, readonly [client: string, check: string]>();
  readonly events = new Map<string, readonly [client: string, check: string]>();
  readonly v2Entities = new Map<string, readonly [namespace: string, name: string]>();
  readonly v2Events = new Map<string, readonly [namespace: string, entity: string, check: string]>();

  get size(): number {
    return this.clients.size + this.results.size + this.events.size + this.v2Entities.size + this.v2Events.size;
  }

  clear(): void {
    for (const keys of [this.clients, this.results, this.events, this.v2Entities, this.v2Events]) keys.clear();
  }
}

export class BatchRows {
  /** Keyed by name / `pairKey` / `v2Key`; a null value is a row known to be absent. */
  readonly clients = new Map<string, string | null>();
  readonly results = new Map<string, Row | null>();
  readonly events = new Map<string, string | null>();
  readonly v2Entities = new Map<string, string | null>();
  readonly v2Events = new Map<string, string | null>();
  /** What the batch wrote into these maps and has not sent yet: each key once, its last write wins. */
  readonly pending = new PendingWrites();
}

export const pairKey = (client: string, check: string) => `${client}\u0000${check}`;

// Length-prefixed, so that no two tuples share a key whatever their names hold.
export const v2Key = (...parts: readonly string[]) => parts.map((part) => `${part.length}:${part}`).join('');
