// The v2 events and entities this server knows to exist in PostgreSQL: read once in the background, then kept by its
// own units. A unit's row that is neither cached nor known here is taken as absent without a round trip to read it;
// its COMMIT's check proves that (a row another writer made meanwhile fails the check, and the unit runs again, reading).
import type { SyncRows } from './statement-runner.js';
import { v2Key } from './batch-rows.js';

/** Above this many rows in a table the index is not kept (its memory), and every unknown row is read as before. */
export const MAX_INDEXED_KEYS = 250_000;

const RETRY_MS = 30_000;
const TABLES = ['v2Events', 'v2Entities'] as const;
type IndexedTable = (typeof TABLES)[number];

// One statement per table, in TABLES' order: a row past the bound says the table is too large to index.
const LOAD = [
  `SELECT namespace, entity, check_name FROM v2_events LIMIT ${MAX_INDEXED_KEYS + 1}`,
  `SELECT namespace, name FROM v2_entities LIMIT ${MAX_INDEXED_KEYS + 1}`,
].join(';\n');

const indexed = (table: string): table is IndexedTable => (TABLES as readonly string[]).includes(table);

export class KeyIndex {
  private readonly keys: Record<IndexedTable, Set<string>> = { v2Events: new Set(), v2Entities: new Set() };
  private state: 'unloaded' | 'loading' | 'ready' | 'off' = 'unloaded';
  /** After a failed load: not before then again (a slow link is not asked each unit). */
  private retryAt = 0;
  /** Hears the index turned off by its bound: which table, and how many rows it had seen. */
  onTurnedOff: (table: IndexedTable, rows: number) => void = () => undefined;

  /** Whether the index answers (loaded, and not turned off by its bound). */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Whether the row of `key` can be taken as absent: the index is loaded and has no such row. */
  absent(table: string, key: string): boolean {
    return this.state === 'ready' && indexed(table) && !this.keys[table].has(key);
  }

  /** A row known to exist (read or written), or suspected to (a check failed on it): it is read when not cached. */
  present(table: string, key: string): void {
    if (!indexed(table) || this.state === 'off') return;
    const keys = this.keys[table];
    keys.add(key);
    if (keys.size > MAX_INDEXED_KEYS) this.turnOff(table, keys.size);
  }

  /** Reads every row's key once (`read`: one multi-statement round trip); a failure leaves it to be tried again. */
  async load(read: (sql: string) => Promise<{ readonly results?: readonly SyncRows[] }>): Promise<void> {
    if (this.state !== 'unloaded' || Date.now() < this.retryAt) return;
    this.state = 'loading';
    let results: readonly SyncRows[];
    try {
      results = (await read(LOAD)).results ?? [];
    } catch {
      this.retryAt = Date.now() + RETRY_MS;
      if (this.state === 'loading') this.state = 'unloaded';
      return;
    }
    if (this.state !== 'loading') return;
    const [events = [], entities = []] = results.map((result) => result.rows);
    if (events.length > MAX_INDEXED_KEYS) return this.turnOff('v2Events', events.length);
    if (entities.length > MAX_INDEXED_KEYS) return this.turnOff('v2Entities', entities.length);
    for (const row of events) this.keys.v2Events.add(v2Key(String(row.namespace), String(row.entity), String(row.check_name)));
    for (const row of entities) this.keys.v2Entities.add(v2Key(String(row.namespace), String(row.name)));
    this.state = 'ready';
    for (const table of TABLES) if (this.keys[table].size > MAX_INDEXED_KEYS) return this.turnOff(table, this.keys[table].size);
  }

  private turnOff(table: IndexedTable, rows: number): void {
    this.state = 'off';
    for (const each of TABLES) this.keys[each].clear();
    this.onTurnedOff(table, rows);
  }
}
