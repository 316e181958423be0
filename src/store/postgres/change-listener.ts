import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { ReachProbe } from './reach-probe.js';
import type pg from 'pg';
import type { Logger } from 'pino';

// The driver is loaded by the first connection, as the other PostgreSQL parts do.
const load = createRequire(import.meta.url);
const driver = () => load('pg') as typeof pg;

/** The channel the store's triggers notify, one notification per table written in a transaction (migration 4). */
export const CHANGES_CHANNEL = 'checkbridge_store_changes';
const RETRY_MS = 1000;
const PROBE_MS = 1000;
// A probe unanswered over this many of its ticks (each with the event loop reading sockets between) means a silent
// connection: notifications may be lost on it, so it counts as lost.
const PROBE_TICKS = 5;

export interface ChangeHearer {
  /** Listening started (after LISTEN was answered) or stopped (the connection lost). */
  setListening(on: boolean): void;
  /** Every change committed before `at` (performance.now()) has been heard: a probe sent then was answered. */
  heardUntil(at: number): void;
  /** A transaction that wrote to `table` committed. */
  changed(table: string): void;
}

/**
 * Listens on a connection of its own for the store's change notifications and hands them to the hearer; when the
 * connection is lost or falls silent the hearer is told at once, and it connects again each second.
 */
export class ChangeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private probe: NodeJS.Timeout | null = null;
  private probing = false;
  private unanswered = 0;
  /** Why this server is not listening, or null while it is. */
  private away: string | null = 'not listening yet';

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly hearer: ChangeHearer,
    private readonly log: Logger,
    /** Whether PostgreSQL answers at all, probed beside the listening (on another connection, off the main thread). */
    private readonly reach: ReachProbe,
  ) {}

  /** Why the store's caches are off, or null while it listens. */
  get notListening(): string | null {
    return this.away;
  }

  /** Why PostgreSQL counts as out of reach: its reach probe unanswered (see ReachProbe), or null. */
  get silent(): string | null {
    return this.reach.silent;
  }

  async start(): Promise<void> {
    this.probe = setInterval(() => this.tick(), PROBE_MS);
    this.probe.unref();
    await this.connect().catch((error) => this.lost(error));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reach.close();
    if (this.retry) clearTimeout(this.retry);
    if (this.probe) clearInterval(this.probe);
    const client = this.client;
    this.client = null;
    this.hearer.setListening(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new (driver().Client)({
      ...this.connection,
      application_name: `${this.connection.application_name ?? 'checkbridge'} store changes`,
      keepAlive: true,
    });
    client.on('error', (error) => client === this.client && this.lost(error));
    client.on('end', () => client === this.client && this.lost(new Error('the connection to PostgreSQL closed')));
    // Every commit before this is read from the database: listening starts from empty caches.
    const listenSent = performance.now();
    // Heard before this.client is set: dropped, as nothing is held yet.
    client.on('notification', (note) => client === this.client && note.channel === CHANGES_CHANNEL && this.hearer.changed(note.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    this.client = client;
    [this.probing, this.unanswered] = [false, 0];
    if (this.away !== 'not listening yet') this.log.info("store: listening for other servers' changes again, configuration caches on");
    this.away = null;
    this.hearer.setListening(true);
    this.hearer.heardUntil(listenSent);
  }

  private tick(): void {
    const client = this.client;
    if (!client) return;
    if (this.probing) {
      if (++this.unanswered >= PROBE_TICKS) this.lost(new Error(`no answer on the listening connection for ${PROBE_TICKS} probes`));
      return;
    }
    this.probing = true;
    const sent = performance.now();
    // PostgreSQL sends what was committed before the probe ahead of its answer: once answered, all that was heard.
    client.query('SELECT 1').then(
      () => {
        if (client !== this.client) return;
        [this.probing, this.unanswered] = [false, 0];
        this.hearer.heardUntil(sent);
      },
      (error) => client === this.client && this.lost(error),
    );
  }

  private lost(error: unknown): void {
    const client = this.client;
    this.client = null;
    // First of all: nothing held may be trusted once a notification could be missed.
    this.hearer.setListening(false);
    void client?.end().catch(() => undefined);
    if (this.closed) return;
    const reason = (error as Error).message || String(error);
    if (reason !== this.away)
      this.log.warn({ reason }, "store: not listening for other servers' changes, configuration caches off (read from PostgreSQL) until it listens again");
    this.away = reason;
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect().catch((e) => this.lost(e));
    }, RETRY_MS);
  }
}
