// The rows this server's group commits read or wrote lately, each with its version (xmin): a unit whose rows are all
// here reads nothing before it runs, and its COMMIT checks that none changed meanwhile (another server's write, or a
// write outside the units), so a stale row costs a rerun, never a lost update. Bounded, the oldest dropped first.
const MAX_ROWS = 50_000;
const MAX_BYTES = 64 * 1024 * 1024;

export interface CachedRow {
  /** The row as the batch holds it (null: known absent). */
  readonly value: unknown;
  /** Its version as PostgreSQL gave it ('' for an absent row). */
  readonly seen: string;
}

type Entry = CachedRow & { readonly bytes: number };

const sizeOf = (value: unknown) => (typeof value === 'string' ? value.length * 2 : value === null ? 8 : JSON.stringify(value).length * 2) + 64;

export class RowCache {
  private readonly rows = new Map<string, Entry>();
  private bytes = 0;

  get(table: string, key: string): CachedRow | undefined {
    return this.rows.get(`${table}\u0000${key}`);
  }

  set(table: string, key: string, value: unknown, seen: string): void {
    const id = `${table}\u0000${key}`;
    this.forget(id);
    const entry = { value, seen, bytes: sizeOf(value) };
    this.rows.set(id, entry);
    this.bytes += entry.bytes;
    for (const [oldest, old] of this.rows) {
      if (this.rows.size <= MAX_ROWS && this.bytes <= MAX_BYTES) break;
      this.rows.delete(oldest);
      this.bytes -= old.bytes;
    }
  }

  drop(table: string, key: string): void {
    this.forget(`${table}\u0000${key}`);
  }

  private forget(id: string): void {
    const old = this.rows.get(id);
    if (!old) return;
    this.rows.delete(id);
    this.bytes -= old.bytes;
  }
}
