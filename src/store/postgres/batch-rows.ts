// A group commit's rows on PostgreSQL: read once for the whole batch under its locks, then kept as the batch writes
// them, so that each result does not wait for a round trip per read. Dropped when a savepoint rolls back.
type Row = Record<string, unknown>;

export class BatchRows {
  /** Keyed by name / `pairKey`; a null value is a row known to be absent. */
  readonly clients = new Map<string, string | null>();
  readonly results = new Map<string, Row | null>();
  readonly events = new Map<string, string | null>();
}

export const pairKey = (client: string, check: string) => `${client}\u0000${check}`;
