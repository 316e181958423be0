import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Logger } from 'pino';
import { TASKS, type Leadership, type ServerEntry } from './leadership.js';
import { ACQUIRE_SQL, CREATE_LEASE_SQL, LEASE_NAME, RELEASE_SQL, RENEW_SQL, SERVERS_SQL } from './lease-sql.js';

// The PostgreSQL driver is loaded by the first connection: a daemon on the embedded store never loads it.
const load = createRequire(import.meta.url);
const driver = () => load('pg') as typeof pg;

/** The advisory lock that serialises creating the lease table: ('chkb', 1). */
export const ELECTION_LOCK = [0x63686b62, 1] as const;

export interface ElectorOptions {
  /** The election connection's settings (host, user, TLS...) from the DSN and PG* variables. */
  readonly connection: pg.ClientConfig;
  readonly logger: Logger;
  /** Names this server in logs and in the connection's application_name. */
  readonly identity: { readonly name: string; readonly pid: number };
  /** How often a follower tries for the lease. */
  readonly retryMs?: number;
  /** How often the leader renews its lease. */
  readonly pingMs?: number;
  /** A renewal unanswered this long means the connection is gone. */
  readonly pingTimeoutMs?: number;
  /** How long a renewal holds the lease, by the database's clock: a frozen leader loses it this long after its last renewal. */
  readonly leaseMs?: number;
}

const APPLICATION = 'checkbridge election';

/**
 * The query's answer, or a timeout after `ms`. When the timer fires, one more turn of the event loop reads what has
 * already arrived: after a stall (a blocked store call) an overdue timer runs before the poll phase would, and an
 * answer sitting in the socket is not a lost connection.
 */
function answeredWithin<T>(query: Promise<T>, ms: number): Promise<T> {
  let answered = false;
  const watched = query.finally(() => (answered = true));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => setImmediate(() => answered || reject(new Error(`PostgreSQL did not answer within ${ms} ms`)))), ms);
  });
  return Promise.race([watched, late]).finally(() => clearTimeout(timer));
}

const message = (error: unknown) => (error as Error).message || String((error as { code?: unknown }).code ?? error);

/**
 * Leader election on PostgreSQL: a lease row whose expiry the database computes, renewed every second by the leader
 * and taken by a follower once it expired or its holder's session ended. A leader that stops renewing (frozen,
 * partitioned) loses it after `leaseMs`; until a renewal sent within the last ping period and timeout has been
 * answered, it does not act as leader, so a leader resuming after a stall asks the database (term compared in the
 * renewal's one statement) before its overdue timers publish anything.
 */
export class PostgresElector implements Leadership {
  private client: pg.Client | null = null;
  private leader = false;
  private term = '';
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private onChange: (leader: boolean) => void = () => undefined;
  private lastFailure = '';
  /** Monotonic instant the last confirmed acquisition or renewal was sent: the lease held at least `leaseMs` from then. */
  private confirmedAt = 0;
  private roster: { at: number; entries: Promise<ServerEntry[]> } | null = null;
  private readonly log: Logger;
  private readonly retryMs: number;
  private holdOffUntil = 0;
  private readonly pingMs: number;
  private readonly pingTimeoutMs: number;
  private readonly leaseMs: number;
  private readonly freshMs: number;
  /** This elector's name in the lease row: unique per process start. */
  private readonly holder: string;

  constructor(private readonly options: ElectorOptions) {
    this.log = options.logger.child({ component: 'election', server: options.identity.name, pid: options.identity.pid });
    this.retryMs = options.retryMs ?? 1000;
    this.pingMs = options.pingMs ?? 1000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
    this.leaseMs = options.leaseMs ?? 10_000;
    // Acting on a renewal stops well before the database could give the lease to another server.
    this.freshMs = Math.min(this.pingMs + this.pingTimeoutMs, this.leaseMs / 2);
    this.holder = `${options.identity.name} ${options.identity.pid} ${randomUUID()}`;
  }

  start(onChange: (leader: boolean) => void): void {
    this.onChange = onChange;
    this.next(0);
  }

  /** Elected, and a renewal sent within the freshness bound answered: a server back from a stall asks PostgreSQL first. */
  isLeader(): boolean {
    return this.leader && performance.now() - this.confirmedAt <= this.freshMs;
  }

  /** The lease's term while elected (each takeover increments it), or null. */
  currentTerm(): string | null {
    return this.leader ? this.term : null;
  }

  /** Every server connected to the election; asked of PostgreSQL at most once a second, so /info cannot crowd out the renewal. */
  servers(): Promise<ServerEntry[]> {
    const now = Date.now();
    if (this.roster && now - this.roster.at < 1000) return this.roster.entries;
    this.roster = { at: now, entries: this.askServers() };
    return this.roster.entries;
  }

  private async askServers(): Promise<ServerEntry[]> {
    const client = this.client;
    if (!client) return [];
    try {
      const result = await client.query<{ application: string; address: string | null; leader: boolean }>(SERVERS_SQL, [LEASE_NAME, `${APPLICATION} %`]);
      const timestamp = Math.floor(Date.now() / 1000);
      return result.rows.flatMap((row) => {
        const parts = /^checkbridge election (\S+) (\d+)$/.exec(row.application);
        return parts ? [{ id: `${parts[1]}:${parts[2]}`, address: row.address, tasks: row.leader ? [...TASKS] : [], timestamp }] : [];
      });
    } catch {
      // The connection failed under the question: the election loop reports it.
      return [];
    }
  }

  /** The backend pid of the connection (for tests and diagnostics), or null when not connected. */
  backendPid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    const held = this.leader;
    this.leader = false;
    if (held && client) {
      this.log.info('leaving the election: releasing the lease');
      // Expired at once for a follower's next try (ending the session would free it too).
      await answeredWithin(client.query(RELEASE_SQL, [LEASE_NAME, this.holder, this.term]), 1000).catch(() => undefined);
    }
    await client?.end().catch(() => undefined);
  }

  private next(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.turn(), delayMs);
  }

  private async turn(): Promise<void> {
    try {
      if (this.leader) await this.renew();
      else await this.attempt();
    } finally {
      this.next(this.leader ? this.pingMs : this.retryMs);
    }
  }

  private async attempt(): Promise<void> {
    // Just lost: a follower (whose connection is sound) gets the first tries; alone, this server takes it back.
    if (Date.now() < this.holdOffUntil) return;
    try {
      const client = this.client ?? (await this.connect());
      const sentAt = performance.now();
      const result = await answeredWithin(client.query<{ term: string }>(ACQUIRE_SQL, [LEASE_NAME, this.holder, this.leaseMs]), this.pingTimeoutMs);
      this.lastFailure = '';
      const term = result.rows[0]?.term;
      if (this.closed || client !== this.client || term === undefined) return;
      this.confirmedAt = sentAt;
      this.term = term;
      this.leader = true;
      this.log.info({ term: Number(term) }, 'became the elected server');
      this.onChange(true);
    } catch (error) {
      this.drop(message(error));
    }
  }

  private async renew(): Promise<void> {
    const client = this.client;
    const sentAt = performance.now();
    try {
      const result = await answeredWithin(client!.query(RENEW_SQL, [LEASE_NAME, this.holder, this.term, this.leaseMs]), this.pingTimeoutMs);
      if (client !== this.client || !this.leader) return;
      if (result.rowCount === 1) this.confirmedAt = sentAt;
      else this.lose(`the lease of term ${this.term} expired or was taken by another server`);
    } catch (error) {
      if (client === this.client) this.drop(message(error));
    }
  }

  private async connect(): Promise<pg.Client> {
    const { identity } = this.options;
    const client = new (driver().Client)({
      ...this.options.connection,
      application_name: `${APPLICATION} ${identity.name} ${identity.pid}`.slice(0, 63),
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
    });
    // A connection that drops (reset, server shut down, terminated) ends leadership before anything else runs.
    client.on('error', (error) => {
      if (client === this.client) this.drop(message(error));
    });
    client.on('end', () => {
      if (client === this.client) this.drop('the connection to PostgreSQL closed');
    });
    this.client = client;
    try {
      await client.connect();
      // PostgreSQL's side: a silent peer's session (and so its claim on the lease) is given up after about 11 s.
      await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
      // Two servers starting together would race to create the table: the first creates it, the other waits and finds it.
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${ELECTION_LOCK[0]}, ${ELECTION_LOCK[1]}); ${CREATE_LEASE_SQL}; COMMIT`);
    } catch (error) {
      if (client === this.client) this.client = null;
      void client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /** No longer leader (said first); another server gets the first tries. */
  private lose(reason: string): void {
    if (!this.leader) return;
    this.leader = false;
    this.holdOffUntil = Date.now() + 2 * this.retryMs;
    this.log.warn({ reason, term: Number(this.term) }, `lost the election: ${reason}`);
    this.onChange(false);
  }

  /** The connection is gone or unusable: no longer leader, and a fresh connection next time. */
  private drop(reason: string): void {
    const client = this.client;
    this.client = null;
    if (this.leader) this.lose(reason);
    else if (reason !== this.lastFailure && !this.closed) this.log.warn({ reason }, 'election: cannot reach PostgreSQL; retrying');
    this.lastFailure = reason;
    // Ending the session frees the lease for a follower if this server still held it.
    void client?.end().catch(() => undefined);
  }
}
