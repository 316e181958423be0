import type { SqlDatabase, SqlStatement } from '../sql/database.js';
import { performance } from 'node:perf_hooks';
import { EventStates, type EventState } from './event-states.js';
import { RESOURCE_GENERATION } from '../postgres/store-schema.js';

import type { Entity, Event } from '../../v2/index.js';
import type { ResourceOf } from '../stored-kinds.js';
/** How stale another server's resource write may be to this one's readers of the generation (the v2 scheduler). */
const SHARED_GENERATION_MS = 100;
import { EVENT_READS, type ReadRows } from './event-reads.js';

type DataRow = { data: string };
// A row holds what was written under its key: the caller's type names that.
const parse = <T>(row: DataRow | undefined) => (row ? (JSON.parse(row.data) as T) : null);
const parseAll = <T>(rows: unknown[]) => (rows as DataRow[]).map((r) => JSON.parse(r.data) as T);

/**
 * A user as stored: Sensu Go's User with the bcrypt hash of its password (never the password itself, and neither is
 * ever served), and the external provider that signs it in, when one does.
 */
export interface StoredUser {
  username: string;
  groups?: string[];
  disabled?: boolean;
  password_hash?: string;
  /** The external provider's name; none, '' or 'basic': a local user. */
  provider?: string;
  provider_type?: string;
}

export interface ApiKeyRow {
  readonly keyHash: string;
  readonly username: string;
  readonly createdBy: string;
  readonly createdAt: number;
  /** The key's ID, shown in lists and independent of the key (keys granted before IDs: the key's first 8 characters). */
  readonly hint: string;
}

/** The v2 API's tables: events and entities per namespace, generic resources, users, API keys, sessions, secrets. */
export class ResourceTables {
  /** The API's reads of events and entities awaited without blocking the thread (a shared store's), or null (SQLite's). */
  readRows: ReadRows | null = null;
  protected readonly s: Record<string, SqlStatement>;
  protected accessWrites = 0;

  /**
   * Changes with every write that can change who a caller is or what they may do (users, API keys, sessions, any
   * resource: roles, bindings, providers): caches of credential checks and RBAC decisions are valid for one value.
   */
  get accessGeneration(): number {
    // Shared with other servers, whose writes this one does not see: every read is a new generation (no caching).
    return this.shared ? ++this.accessWrites : this.accessWrites;
  }

  private resourceWrites = 0;

  /** The shared row as last read, when (performance.now()), and this process's writes then. */
  private sharedGeneration = { value: NaN, readAt: -Infinity, writes: -1 };

  /**
   * Changes with every resource write (checks, hooks, assets...): what reads them all may skip a re-read while it holds.
   * Shared: every server's writes bump one row in their own transaction (a trigger), read at most every
   * SHARED_GENERATION_MS (a request per check would otherwise wait on a round trip each); this process's own writes at once.
   */
  get resourceGeneration(): number {
    if (!this.shared) return this.resourceWrites;
    const held = this.sharedGeneration;
    const now = performance.now();
    if (held.writes === this.resourceWrites && now - held.readAt < SHARED_GENERATION_MS) return held.value;
    const row = this.s.resourceGeneration!.get(RESOURCE_GENERATION) as { value: number } | undefined;
    this.sharedGeneration = { value: Number(row?.value ?? NaN), readAt: now, writes: this.resourceWrites };
    return this.sharedGeneration.value;
  }

  protected readonly shared: boolean;
  /** The last-written event states (embedded store only): see EventStates. */
  private readonly eventStates: EventStates | null;

  constructor(db: SqlDatabase, options: { shared?: boolean } = {}) {
    this.shared = options.shared ?? false;
    this.eventStates = this.shared ? null : new EventStates();
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      getEvent: p(EVENT_READS.getEvent),
      putEvent: p('INSERT INTO v2_events VALUES (?, ?, ?, ?) ON CONFLICT (namespace, entity, check_name) DO UPDATE SET data = excluded.data'),
      deleteEvent: p('DELETE FROM v2_events WHERE namespace = ? AND entity = ? AND check_name = ?'),
      listEvents: p(EVENT_READS.listEvents),
      listEventsOf: p(EVENT_READS.listEventsOf),
      listAllEvents: p(EVENT_READS.listAllEvents),
      getEntity: p('SELECT data FROM v2_entities WHERE namespace = ? AND name = ?'),
      // Each result writes its entity, which mostly has not changed: an unchanged row is left as it is (no page written).
      putEntity: p(
        'INSERT INTO v2_entities VALUES (?, ?, ?) ON CONFLICT (namespace, name) DO UPDATE SET data = excluded.data WHERE v2_entities.data IS DISTINCT FROM excluded.data',
      ),
      deleteEntity: p('DELETE FROM v2_entities WHERE namespace = ? AND name = ?'),
      listEntities: p(EVENT_READS.listEntities),
      getResource: p('SELECT data FROM v2_resources WHERE kind = ? AND namespace = ? AND name = ?'),
      putResource: p('INSERT INTO v2_resources VALUES (?, ?, ?, ?) ON CONFLICT (kind, namespace, name) DO UPDATE SET data = excluded.data'),
      deleteResource: p('DELETE FROM v2_resources WHERE kind = ? AND namespace = ? AND name = ?'),
      listResources: p('SELECT data FROM v2_resources WHERE kind = ? AND namespace = ? ORDER BY name'),
      namespacesWith: p('SELECT DISTINCT namespace FROM v2_resources WHERE kind = ? ORDER BY namespace'),
      namespaceReferences: p(`SELECT 'Event' AS kind, entity || '/' || check_name AS name FROM v2_events WHERE namespace = @ns
        UNION ALL SELECT 'Entity', name FROM v2_entities WHERE namespace = @ns
        UNION ALL SELECT kind, name FROM v2_resources WHERE namespace = @ns AND kind != 'Namespace'`),
      getUser: p('SELECT data FROM users WHERE name = ?'),
      putUser: p('INSERT INTO users VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET data = excluded.data'),
      countUsers: p('SELECT COUNT(*) AS n FROM users'),
      listUsers: p('SELECT data FROM users ORDER BY name'),
      getKey: p('SELECT key_hash AS "keyHash", username, created_by AS "createdBy", created_at AS "createdAt", hint FROM api_keys WHERE key_hash = ?'),
      putKey: p('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?)'),
      deleteKey: p('DELETE FROM api_keys WHERE key_hash = ?'),
      getKeyById: p('SELECT key_hash AS "keyHash", username, created_by AS "createdBy", created_at AS "createdAt", hint FROM api_keys WHERE hint = ?'),
      listKeys: p('SELECT key_hash AS "keyHash", username, created_by AS "createdBy", created_at AS "createdAt", hint FROM api_keys ORDER BY created_at, hint'),
      getSession: p('SELECT id, username, refresh_id AS "refreshId", expires_at AS "expiresAt" FROM auth_sessions WHERE id = ?'),
      putSession: p(
        'INSERT INTO auth_sessions VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET refresh_id = excluded.refresh_id, expires_at = excluded.expires_at',
      ),
      deleteSession: p('DELETE FROM auth_sessions WHERE id = ?'),
      deleteUserSessions: p('DELETE FROM auth_sessions WHERE username = ?'),
      purgeSessions: p('DELETE FROM auth_sessions WHERE expires_at <= ?'),
      getSecret: p('SELECT value FROM secrets WHERE name = ?'),
      resourceGeneration: p('SELECT value FROM counters WHERE name = ?'),
      putSecret: p('INSERT INTO secrets VALUES (?, ?) ON CONFLICT DO NOTHING'),
    };
  }

  getEvent(namespace: string, entity: string, check: string): Event | null {
    return parse<Event>(this.s.getEvent!.get(namespace, entity, check) as DataRow | undefined);
  }

  /** What an update reads of the stored event (a copy the caller owns); null when there is none. */
  getEventState(namespace: string, entity: string, check: string): EventState | null {
    const held = this.eventStates?.get(namespace, entity, check);
    if (held) return held;
    const event = this.getEvent(namespace, entity, check);
    if (event) this.eventStates?.remember(namespace, entity, check, event);
    return event as EventState | null;
  }

  /** `rememberState`: the next update of this event will read it (the v2 PUT); other writers leave nothing held. */
  putEvent(namespace: string, entity: string, check: string, event: Event, rememberState = false): void {
    this.s.putEvent!.run(namespace, entity, check, JSON.stringify(event));
    if (rememberState) this.eventStates?.remember(namespace, entity, check, event);
    else this.eventStates?.forget(namespace, entity, check);
  }

  deleteEvent(namespace: string, entity: string, check: string): boolean {
    this.eventStates?.forget(namespace, entity, check);
    return this.s.deleteEvent!.run(namespace, entity, check).changes > 0;
  }

  /** After a rolled-back transaction: the states held may be of writes that are gone. */
  forgetEventStates(): void {
    this.eventStates?.clear();
    // Namespaces, credentials and grants read inside it may be gone too.
    this.accessWrites++;
  }

  /** Events of a namespace (all namespaces when null), optionally of one entity, in key order. */
  listEvents(namespace: string | null, entity?: string): Event[] {
    const rows =
      namespace === null ? this.s.listAllEvents!.all() : entity === undefined ? this.s.listEvents!.all(namespace) : this.s.listEventsOf!.all(namespace, entity);
    return parseAll<Event>(rows);
  }

  getEntity(namespace: string, name: string): Entity | null {
    return parse<Entity>(this.s.getEntity!.get(namespace, name) as DataRow | undefined);
  }

  putEntity(namespace: string, name: string, entity: Entity): void {
    this.s.putEntity!.run(namespace, name, JSON.stringify(entity));
  }

  deleteEntity(namespace: string, name: string): boolean {
    return this.s.deleteEntity!.run(namespace, name).changes > 0;
  }

  listEntities(namespace: string): Entity[] {
    return parseAll<Entity>(this.s.listEntities!.all(namespace));
  }

  private namespaces = { generation: -1, known: new Map<string, boolean>() };

  /** Whether the Namespace exists: held while no access write happens (every event PUT asks; shared: read each time). */
  namespaceExists(name: string): boolean {
    const generation = this.accessGeneration;
    if (this.namespaces.generation !== generation) this.namespaces = { generation, known: new Map() };
    let known = this.namespaces.known.get(name);
    if (known === undefined) {
      known = this.s.getResource!.get('Namespace', '', name) !== undefined;
      if (this.namespaces.known.size < 10_000) this.namespaces.known.set(name, known);
    }
    return known;
  }

  getResource<K extends string>(kind: K, namespace: string, name: string): ResourceOf<K> | null {
    return parse<ResourceOf<K>>(this.s.getResource!.get(kind, namespace, name) as DataRow | undefined);
  }

  /** Any object, stored as its JSON: its writers check it (typed by kind on reads: ResourceOf). */
  putResource(kind: string, namespace: string, name: string, resource: object): void {
    this.accessWrites++;
    this.resourceWrites++;
    this.s.putResource!.run(kind, namespace, name, JSON.stringify(resource));
  }

  deleteResource(kind: string, namespace: string, name: string): boolean {
    this.accessWrites++;
    this.resourceWrites++;
    return this.s.deleteResource!.run(kind, namespace, name).changes > 0;
  }

  /** What lives in a namespace (kind and name of each), so that deleting it can be refused by name. */
  namespaceReferences(namespace: string): { kind: string; name: string }[] {
    return this.s.namespaceReferences!.all({ ns: namespace }) as { kind: string; name: string }[];
  }

  listResources<K extends string>(kind: K, namespace: string): ResourceOf<K>[] {
    return parseAll<ResourceOf<K>>(this.s.listResources!.all(kind, namespace));
  }

  /** Every namespace holding a resource of `kind`, whether or not a Namespace of that name exists. */
  namespacesWith(kind: string): string[] {
    return (this.s.namespacesWith!.all(kind) as { namespace: string }[]).map((r) => r.namespace);
  }

  getUser(name: string): StoredUser | null {
    return parse<StoredUser>(this.s.getUser!.get(name) as DataRow | undefined);
  }

  putUser(name: string, user: StoredUser): void {
    this.accessWrites++;
    this.s.putUser!.run(name, JSON.stringify(user));
  }

  userCount(): number {
    return (this.s.countUsers!.get() as { n: number }).n;
  }

  getApiKey(keyHash: string): ApiKeyRow | null {
    return (this.s.getKey!.get(keyHash) as ApiKeyRow | undefined) ?? null;
  }

  /** The key a list names by its ID (an old key: by its 8-character hint). */
  getApiKeyById(id: string): ApiKeyRow | null {
    return id === '' ? null : ((this.s.getKeyById!.get(id) as ApiKeyRow | undefined) ?? null);
  }

  putApiKey(row: ApiKeyRow): void {
    this.accessWrites++;
    this.s.putKey!.run(row.keyHash, row.username, row.createdBy, row.createdAt, row.hint);
  }

  deleteApiKey(keyHash: string): boolean {
    this.accessWrites++;
    return this.s.deleteKey!.run(keyHash).changes > 0;
  }

  listApiKeys(): ApiKeyRow[] {
    return this.s.listKeys!.all() as ApiKeyRow[];
  }

  getSession(id: string): { id: string; username: string; refreshId: string; expiresAt: number } | null {
    return (this.s.getSession!.get(id) as { id: string; username: string; refreshId: string; expiresAt: number } | undefined) ?? null;
  }

  putSession(id: string, username: string, refreshId: string, expiresAt: number, now: number): void {
    this.accessWrites++;
    this.s.purgeSessions!.run(now);
    this.s.putSession!.run(id, username, refreshId, expiresAt);
  }

  listUsers(): StoredUser[] {
    return (this.s.listUsers!.all() as DataRow[]).map((r) => JSON.parse(r.data) as StoredUser);
  }

  deleteSession(id: string): void {
    this.accessWrites++;
    this.s.deleteSession!.run(id);
  }

  /** Ends every session of a user (a password change): their access and refresh tokens stop working at once. */
  deleteUserSessions(username: string): number {
    this.accessWrites++;
    return this.s.deleteUserSessions!.run(username).changes;
  }

  /** The named secret, created with `make()` on first use (for example the JWT signing key). */
  secret(name: string, make: () => string): string {
    this.s.putSecret!.run(name, make());
    return (this.s.getSecret!.get(name) as { value: string }).value;
  }
}
