import { performance } from 'node:perf_hooks';
import type { SqlDatabase } from '../sql/database.js';
import { ResourceTables, type ApiKeyRow, type StoredUser } from '../tables/v2-resources.js';
import { RESOURCE_GENERATION } from './store-schema.js';
import type { ResourceOf } from '../stored-kinds.js';

// Past this many entries a map starts again empty: a bound on memory, not a policy.
const MAX_ENTRIES = 10_000;
// What is held is trusted only while every change committed up to this long ago is known to have been heard (a probe
// answered on the listening connection since): a silent connection cannot hold a revocation back for longer.
const TRUSTED_MS = 5000;
type DataRow = { data: string };

/** Puts `value` under `key`, starting the map again when it is full. */
function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
  return value;
}

const parsed = <T>(data: string | null) => (data === null ? null : (JSON.parse(data) as T));

/**
 * The v2 tables of a store several servers share, with the configuration every request reads (resources, users, API
 * keys) held in memory while this server listens for the store's change notifications (ChangeListener): each
 * notification drops what its table holds, so another server's write takes effect here once it arrived. While not
 * listening nothing is held and every read goes to the database, as the plain shared tables do.
 */
export class SharedResourceTables extends ResourceTables {
  private on = false;
  private heardAt = -Infinity;
  // What is held is the stored text: each read parses its own copy, which its caller may change.
  private readonly resources = new Map<string, string | null>();
  private readonly lists = new Map<string, string[]>();
  private readonly namespaceLists = new Map<string, string[]>();
  private readonly users = new Map<string, string | null>();
  private readonly keys = new Map<string, ApiKeyRow | null>();
  /** Changes heard (any server's commits, this one's included), and configuration written by this server, so far. */
  heard = 0;
  configWrites = 0;
  /** The `counters` row as last read while listening; null once a resource write may have moved it. */
  private generation: number | null = null;

  constructor(db: SqlDatabase) {
    super(db, { shared: true });
  }

  /** Whether reads are served from memory: this server listens and has heard every change until TRUSTED_MS ago. */
  private get live(): boolean {
    return this.on && performance.now() - this.heardAt < TRUSTED_MS;
  }

  /** Listening starts (from empty caches: what committed before is read from the database) or stops (all dropped). */
  setListening(on: boolean): void {
    this.heard++;
    this.on = on;
    this.heardAt = -Infinity;
    this.dropAll();
  }

  heardUntil(at: number): void {
    this.heardAt = Math.max(this.heardAt, at);
  }

  /** Whether configuration reads are answered from memory now (none waits for PostgreSQL). */
  get holding(): boolean {
    return this.live;
  }

  /** Why what is held is not trusted now, or null when it is. */
  get untrusted(): string | null {
    if (!this.on || this.live) return null;
    if (this.heardAt === -Infinity) return 'no change heard yet since listening began';
    return `every change heard only until ${Math.round(performance.now() - this.heardAt)} ms ago`;
  }

  /** A committed write to `table` (by any server, this one included); any other text drops everything (a hint only). */
  changed(table: string): void {
    this.heard++;
    if (table === 'v2_resources') this.dropResources();
    else if (table === 'users') this.users.clear();
    else if (table === 'api_keys') this.keys.clear();
    else if (table !== 'auth_sessions') this.dropAll();
    this.accessWrites++;
  }

  override get accessGeneration(): number {
    // Listening: a new generation per change heard or made; otherwise per read, as the plain shared tables.
    return this.live ? this.accessWrites : super.accessGeneration;
  }

  override get resourceGeneration(): number {
    if (!this.live) return super.resourceGeneration;
    if (this.generation === null) {
      const row = this.s.resourceGeneration!.get(RESOURCE_GENERATION) as { value: number } | undefined;
      this.generation = Number(row?.value ?? NaN);
    }
    return this.generation;
  }

  override getResource<K extends string>(kind: K, namespace: string, name: string): ResourceOf<K> | null {
    if (!this.live) return super.getResource(kind, namespace, name);
    const key = JSON.stringify([kind, namespace, name]);
    const held = this.resources.get(key);
    if (held !== undefined) return parsed<ResourceOf<K>>(held);
    const row = this.s.getResource!.get(kind, namespace, name) as DataRow | undefined;
    return parsed<ResourceOf<K>>(remember(this.resources, key, row?.data ?? null));
  }

  override listResources<K extends string>(kind: K, namespace: string): ResourceOf<K>[] {
    if (!this.live) return super.listResources(kind, namespace);
    const key = JSON.stringify([kind, namespace]);
    const held =
      this.lists.get(key) ??
      remember(
        this.lists,
        key,
        (this.s.listResources!.all(kind, namespace) as DataRow[]).map((r) => r.data),
      );
    return held.map((data) => JSON.parse(data) as ResourceOf<K>);
  }

  override namespacesWith(kind: string): string[] {
    if (!this.live) return super.namespacesWith(kind);
    return [...(this.namespaceLists.get(kind) ?? remember(this.namespaceLists, kind, super.namespacesWith(kind)))];
  }

  override getUser(name: string): StoredUser | null {
    if (!this.live) return super.getUser(name);
    const held = this.users.get(name);
    if (held !== undefined) return parsed<StoredUser>(held);
    return parsed<StoredUser>(remember(this.users, name, (this.s.getUser!.get(name) as DataRow | undefined)?.data ?? null));
  }

  override getApiKey(keyHash: string): ApiKeyRow | null {
    if (!this.live) return super.getApiKey(keyHash);
    const held = this.keys.has(keyHash) ? this.keys.get(keyHash)! : remember(this.keys, keyHash, super.getApiKey(keyHash));
    return held === null ? null : { ...held };
  }

  // This server's own writes take effect here at once (its notification drops the same again after COMMIT).
  override putResource(kind: string, namespace: string, name: string, resource: object): void {
    this.configWrites++;
    super.putResource(kind, namespace, name, resource);
    this.dropResources();
  }

  override deleteResource(kind: string, namespace: string, name: string): boolean {
    this.configWrites++;
    const removed = super.deleteResource(kind, namespace, name);
    this.dropResources();
    return removed;
  }

  override putUser(name: string, user: StoredUser): void {
    this.configWrites++;
    super.putUser(name, user);
    this.users.clear();
  }

  override putApiKey(row: ApiKeyRow): void {
    this.configWrites++;
    super.putApiKey(row);
    this.keys.clear();
  }

  override deleteApiKey(keyHash: string): boolean {
    this.configWrites++;
    const removed = super.deleteApiKey(keyHash);
    this.keys.clear();
    return removed;
  }

  /** A rolled-back transaction: what was read inside it may be of writes that are gone. */
  override forgetEventStates(): void {
    super.forgetEventStates();
    this.dropAll();
  }

  private dropResources(): void {
    this.resources.clear();
    this.lists.clear();
    this.namespaceLists.clear();
    this.generation = null;
  }

  private dropAll(): void {
    this.dropResources();
    this.users.clear();
    this.keys.clear();
    this.accessWrites++;
  }
}
