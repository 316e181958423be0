import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { EventQuery, EventRow, V2EventStore } from '../event-store.js';
import type { EmbeddedEventStore } from '../tables/embedded-event-store.js';
import type { ResourceTables } from '../tables/v2-resources.js';
import { CheckbridgeError } from '../../errors.js';
import { PostgresBackend, checkCanCreateTables, isConnectionError, reason } from './backend.js';
import { PG_TYPE, type PostgresConfig } from './config.js';
import type { PgEnvironment } from './connection.js';
import type { Event } from '../../v2/index.js';

export interface RouterOptions {
  /** The events in the state store's own table, used while no PostgresConfig routes them elsewhere. */
  readonly embedded: EmbeddedEventStore;
  /** Where PostgresConfig resources are kept (the embedded store: they say where the events go). */
  readonly resources: ResourceTables;
  readonly env: PgEnvironment;
  readonly logger: Logger;
  /** Between connection attempts (5 s). */
  readonly retryMs?: number;
  /** How long a strict store's write waits for PostgreSQL before it fails. */
  readonly strictWaitMs?: number;
}

// Non-strict: this many failed attempts in a row send events to the embedded store.
const ATTEMPTS_BEFORE_FALLBACK = 3;

/**
 * The event store in use: the embedded one, or the first PostgresConfig (by name). Strict: PostgreSQL only, writes wait
 * while it is down and then fail loudly. Non-strict: after 3 failed attempts events go to the embedded store, and back
 * to PostgreSQL when an attempt succeeds. Each switch is logged.
 */
export class EventStoreRouter implements V2EventStore {
  private readonly backends = new Map<string, PostgresBackend>();
  /** Stored configurations that cannot be used (a DSN that does not parse), with the reason: health reports them. */
  private readonly unusable = new Map<string, string>();
  /** Whether events go to each non-strict backend now (strict ones always). */
  private readonly using = new Map<string, boolean>();
  private staged: EventRow[] = [];
  /** Committed batches waiting for the writer; it writes all of them in one statement (group commit on PostgreSQL). */
  private waiting: { rows: EventRow[]; resolve: () => void; reject: (error: Error) => void }[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly retryMs: number;
  private readonly strictWaitMs: number;
  private readonly log: Logger;

  constructor(private readonly options: RouterOptions) {
    this.retryMs = options.retryMs ?? 5000;
    this.strictWaitMs = options.strictWaitMs ?? 30_000;
    this.log = options.logger.child({ component: 'event-store' });
  }

  get label(): string {
    return this.current().label;
  }

  /** Loads the stored configurations, tries each once, and keeps trying every retry interval. */
  async start(): Promise<void> {
    const configs = this.options.resources.listResources(PG_TYPE, '') as unknown as PostgresConfig[];
    for (const config of configs) await this.add(config);
    this.timer = setInterval(() => void this.probeAll(), this.retryMs);
    this.timer.unref();
  }

  /** For a strict configuration: the reason it cannot be used, or null. */
  check(config: PostgresConfig): Promise<string | null> {
    return checkCanCreateTables(config, this.options.env);
  }

  /** Stores (or replaces) a configuration and starts using it. */
  async configure(config: PostgresConfig): Promise<void> {
    this.options.resources.putResource(PG_TYPE, '', config.metadata.name, config);
    await this.drop(config.metadata.name);
    await this.add(config);
  }

  async remove(name: string): Promise<boolean> {
    const existed = this.options.resources.deleteResource(PG_TYPE, '', name);
    await this.drop(name);
    return existed;
  }

  configs(): PostgresConfig[] {
    return this.options.resources.listResources(PG_TYPE, '') as unknown as PostgresConfig[];
  }

  /** `PostgresHealth`: one entry per configuration, by name; an unusable one unhealthy with its `Err`; undefined when there is none. */
  health(): { Name: string; Active: boolean; Healthy: boolean; Err?: string }[] | undefined {
    if (this.backends.size === 0 && this.unusable.size === 0) return undefined;
    const selected = this.selected();
    const usable = [...this.backends.values()].map((b) => ({ Name: b.name, Active: b === selected && this.isUsing(b), Healthy: b.connected }));
    const unusable = [...this.unusable].map(([name, err]) => ({ Name: name, Active: false, Healthy: false, Err: err }));
    return [...usable, ...unusable].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
  }

  /** True when events go to the embedded store now: the intake then writes them inside its own transaction. */
  embeddedActive(): boolean {
    const backend = this.selected();
    return !backend || !this.isUsing(backend);
  }

  /** Rows of the group commit in progress, written by `flushStaged` once the embedded transaction committed. */
  stage(rows: readonly EventRow[]): void {
    if (this.embeddedActive()) this.options.embedded.putManySync(rows);
    else this.staged.push(...rows);
  }

  /**
   * Writes the staged rows; `committed` false drops them. One writer at a time, in commit order: batches committed
   * while a write is in flight go together in the next statement, so the batch grows with the load.
   */
  flushStaged(committed = true): Promise<void> {
    const rows = this.staged;
    this.staged = [];
    if (!committed || rows.length === 0) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ rows, resolve, reject }));
    this.writing ??= this.writeWaiting();
    return done;
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      try {
        await this.run((store) => store.putMany(group.flatMap((g) => g.rows)));
        for (const g of group) g.resolve();
      } catch (error) {
        for (const g of group) g.reject(error as Error);
      }
    }
    this.writing = null;
  }

  get(namespace: string, entity: string, check: string): Promise<Event | null> {
    return this.run((store) => store.get(namespace, entity, check));
  }

  list(query: EventQuery): Promise<Event[]> {
    return this.run((store) => store.list(query));
  }

  delete(namespace: string, entity: string, check: string): Promise<boolean> {
    return this.run((store) => store.delete(namespace, entity, check));
  }

  putMany(rows: readonly EventRow[]): Promise<void> {
    return this.run((store) => store.putMany(rows));
  }

  update(row: EventRow, nowSeconds: number): Promise<Event> {
    return this.run((store) => store.update(row, nowSeconds));
  }

  hasEvents(namespace: string): Promise<boolean> {
    return this.run((store) => store.hasEvents(namespace));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.writing;
    for (const name of [...this.backends.keys()]) await this.drop(name);
  }

  private selected(): PostgresBackend | null {
    const names = [...this.backends.keys()].sort();
    return names.length ? this.backends.get(names[0]!)! : null;
  }

  private isUsing(backend: PostgresBackend): boolean {
    return backend.strict || this.using.get(backend.name) === true;
  }

  private current(): V2EventStore {
    const backend = this.selected();
    return backend && this.isUsing(backend) ? backend.store : this.options.embedded;
  }

  private async add(config: PostgresConfig): Promise<void> {
    let backend: PostgresBackend;
    try {
      backend = new PostgresBackend(config, this.options.env, this.log);
    } catch (error) {
      this.unusable.set(config.metadata.name, reason(error));
      this.log.error({ postgres: config.metadata.name, err: reason(error) }, 'postgres event store configuration unusable: events stay in the embedded store');
      return;
    }
    this.backends.set(backend.name, backend);
    this.using.set(backend.name, false);
    if (backend.strict) this.log.warn({ postgres: backend.name, strict: true }, 'switched event store to postgres');
    await this.attempt(backend);
  }

  private async drop(name: string): Promise<void> {
    this.unusable.delete(name);
    const backend = this.backends.get(name);
    if (!backend) return;
    const wasCurrent = this.current() === backend.store;
    this.backends.delete(name);
    this.using.delete(name);
    await backend.close();
    if (wasCurrent)
      this.log.warn(
        { postgres: name, to: this.current().label },
        this.embeddedActive() ? 'switched event store to embedded' : 'switched event store to postgres',
      );
  }

  private async probeAll(): Promise<void> {
    for (const backend of [...this.backends.values()]) await this.attempt(backend);
  }

  private async attempt(backend: PostgresBackend): Promise<void> {
    if (await backend.attempt()) this.markUp(backend);
    else this.markDown(backend);
  }

  private markUp(backend: PostgresBackend): void {
    if (backend.strict || this.using.get(backend.name)) return;
    this.using.set(backend.name, true);
    if (this.selected() === backend) this.log.warn({ postgres: backend.name }, 'switched event store to postgres');
  }

  private markDown(backend: PostgresBackend): void {
    if (backend.strict || backend.failures < ATTEMPTS_BEFORE_FALLBACK || !this.using.get(backend.name)) return;
    this.using.set(backend.name, false);
    if (this.selected() === backend)
      this.log.warn({ postgres: backend.name, attempts: backend.failures, err: backend.lastError }, 'switched event store to embedded');
  }

  /** One operation on the store in use, with the fallback (non-strict) or the wait (strict) when PostgreSQL fails. */
  private async run<T>(op: (store: V2EventStore) => Promise<T>): Promise<T> {
    const backend = this.selected();
    if (!backend || !this.isUsing(backend)) return op(this.options.embedded);
    const deadline = Date.now() + this.strictWaitMs;
    for (;;) {
      try {
        const result = await op(backend.store);
        if (!backend.connected) backend.succeeded();
        return result;
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        backend.failed(error);
        this.markDown(backend);
        if (!this.isUsing(backend)) return op(this.options.embedded);
        if (backend.strict && Date.now() + this.retryMs > deadline) {
          throw new CheckbridgeError(
            'CB_EVENT_STORE_UNAVAILABLE',
            `${backend.name} (strict): ${backend.lastError}; retried every ${this.retryMs / 1000} s for ${this.strictWaitMs / 1000} s`,
          );
        }
        await sleep(backend.strict ? this.retryMs : 100);
      }
    }
  }
}
