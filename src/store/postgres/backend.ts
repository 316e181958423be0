import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Logger } from 'pino';
import { PostgresEventStore } from './event-store.js';
import { poolConfigOf, type PgEnvironment } from './connection.js';
import type { PostgresConfig } from './config.js';

// The PostgreSQL driver is loaded by the first connection: a daemon on the embedded store never loads it.
const load = createRequire(import.meta.url);
const driver = () => load('pg') as typeof pg;

/** Errors of the connection (refused, reset, timed out, SQLSTATE class 08 or 57P): a failed attempt, not a bad query. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code.startsWith('08') || code.startsWith('57P') || code === '28000' || code === '28P01';
  return true;
}

export const reason = (error: unknown) => (error as Error).message || String((error as { code?: unknown }).code ?? error);

/** One PostgresConfig at run time: its pool, whether the last attempt connected, and consecutive failed attempts. */
export class PostgresBackend {
  readonly name: string;
  readonly strict: boolean;
  readonly store: PostgresEventStore;
  private readonly pool: pg.Pool;
  private migrated = false;
  connected = false;
  failures = 0;
  lastError = '';

  constructor(
    readonly config: PostgresConfig,
    env: PgEnvironment,
    private readonly log: Logger,
  ) {
    this.name = config.metadata.name;
    this.strict = config.spec.strict === true;
    this.pool = new (driver().Pool)(poolConfigOf(config.spec.dsn, config.spec.pool_size ?? 0, env));
    // An idle client whose server went away must not crash the process: the next attempt reports it.
    this.pool.on('error', (error) => this.log.warn({ postgres: this.name, err: reason(error) }, 'postgres connection lost'));
    this.store = new PostgresEventStore(this.pool, `postgres:${this.name}`);
  }

  /** One connection attempt: migrate once, then query the events table. */
  async attempt(): Promise<boolean> {
    try {
      if (!this.migrated) {
        await PostgresEventStore.migrate(this.pool);
        this.migrated = true;
      }
      await this.store.probe();
      this.succeeded();
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    }
  }

  succeeded(): void {
    this.connected = true;
    this.failures = 0;
    this.lastError = '';
  }

  failed(error: unknown): void {
    this.connected = false;
    this.failures++;
    this.lastError = reason(error);
    this.log.warn({ postgres: this.name, attempt: this.failures, err: this.lastError }, 'postgres event store connection attempt failed');
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** Strict validation: connect and check the user may create tables; nothing is kept. */
export async function checkCanCreateTables(config: PostgresConfig, env: PgEnvironment): Promise<string | null> {
  let client: pg.Client;
  try {
    client = new (driver().Client)(poolConfigOf(config.spec.dsn, 1, env));
  } catch (error) {
    return reason(error);
  }
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return `cannot connect to PostgreSQL: ${reason(error)}`;
  }
  try {
    await client.query('BEGIN');
    await client.query('CREATE TABLE checkbridge_permission_check (id integer)');
    return null;
  } catch (error) {
    return `the PostgreSQL user may not create tables: ${reason(error)}`;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
