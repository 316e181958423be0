import pg from 'pg';
import type { Logger } from 'pino';
import { TASKS, type Leadership, type ServerEntry } from './leadership.js';

/** The advisory lock every server of one database contends for: ('chkb', 1). */
export const ELECTION_LOCK = [0x63686b62, 1] as const;

export interface ElectorOptions {
  /** The holding connection's settings (host, user, TLS...) from the DSN and PG* variables. */
  readonly connection: pg.ClientConfig;
  readonly logger: Logger;
  /** Names this server in logs and in the connection's application_name. */
  readonly identity: { readonly name: string; readonly pid: number };
  /** How often a follower tries for the lock. */
  readonly retryMs?: number;
  /** How often the leader checks its connection is alive. */
  readonly pingMs?: number;
  /** A check unanswered this long means the connection (and so the lock) is gone. */
  readonly pingTimeoutMs?: number;
}

const APPLICATION = 'checkbridge election';
// The sessions of the election in this database, and whether each holds the lock (pg_locks: the two-int key is classid, objid; objsubid 2).
const SERVERS_SQL = `SELECT a.application_name AS application, host(a.client_addr) AS address, l.pid IS NOT NULL AS leader
  FROM pg_stat_activity a
  LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = $2::oid AND l.objsubid = 2
  WHERE a.datname = current_database() AND a.application_name LIKE '${APPLICATION} %'
  ORDER BY a.application_name`;

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
 * Leader election on PostgreSQL: one dedicated connection holds a session-level advisory lock. PostgreSQL releases
 * it when the connection ends (a killed server included); followers try every second. The leader checks its
 * connection every second and, when it fails or stays unanswered, stops being leader at once: before PostgreSQL
 * lets the lock go (it notices a dead peer only after its own keepalives, set longer below).
 */
export class PostgresElector implements Leadership {
  private client: pg.Client | null = null;
  private leader = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private onChange: (leader: boolean) => void = () => undefined;
  private lastFailure = '';
  /** When PostgreSQL last confirmed this server holds the lock (a won attempt or an answered ping). */
  private confirmedAt = 0;
  private roster: { at: number; entries: Promise<ServerEntry[]> } | null = null;
  private readonly log: Logger;
  private readonly retryMs: number;
  private holdOffUntil = 0;
  private readonly pingMs: number;
  private readonly pingTimeoutMs: number;

  constructor(private readonly options: ElectorOptions) {
    this.log = options.logger.child({ component: 'election', server: options.identity.name, pid: options.identity.pid });
    this.retryMs = options.retryMs ?? 1000;
    this.pingMs = options.pingMs ?? 1000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
  }

  start(onChange: (leader: boolean) => void): void {
    this.onChange = onChange;
    this.next(0);
  }

  /**
   * Elected, and confirmed by PostgreSQL within one ping period and its timeout: a server whose event loop stalled
   * (a blocked store call) does not act on overdue timers before its next ping says it still holds the lock.
   */
  isLeader(): boolean {
    return this.leader && Date.now() - this.confirmedAt <= this.pingMs + this.pingTimeoutMs;
  }

  /** Every server connected to the election; asked of PostgreSQL at most once a second, so /info cannot crowd out the ping. */
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
      const result = await client.query<{ application: string; address: string | null; leader: boolean }>(SERVERS_SQL, [...ELECTION_LOCK]);
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
    if (this.leader) this.log.info('leaving the election: releasing the lock');
    this.leader = false;
    // Ending the session releases the lock at once, for a follower's next try.
    await client?.end().catch(() => undefined);
  }

  private next(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.turn(), delayMs);
  }

  private async turn(): Promise<void> {
    try {
      if (this.leader) await this.ping();
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
      const result = await client.query<{ won: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS won', [...ELECTION_LOCK]);
      this.lastFailure = '';
      if (this.closed || client !== this.client || !result.rows[0]?.won) return;
      this.confirmedAt = Date.now();
      this.leader = true;
      this.log.info('became the elected server');
      this.onChange(true);
    } catch (error) {
      this.drop(message(error));
    }
  }

  private async ping(): Promise<void> {
    const client = this.client;
    try {
      await answeredWithin(client!.query('SELECT 1'), this.pingTimeoutMs);
      if (client === this.client) this.confirmedAt = Date.now();
    } catch (error) {
      if (client === this.client) this.drop(message(error));
    }
  }

  private async connect(): Promise<pg.Client> {
    const { identity } = this.options;
    const client = new pg.Client({
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
      // PostgreSQL's side: a silent peer is given up after about 11 s, well after this side's 2 s ping timeout.
      await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
    } catch (error) {
      if (client === this.client) this.client = null;
      void client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /** The connection is gone or unusable: no longer leader (said first), and a fresh connection next time. */
  private drop(reason: string): void {
    const client = this.client;
    this.client = null;
    if (this.leader) {
      this.leader = false;
      this.holdOffUntil = Date.now() + 2 * this.retryMs;
      this.log.warn({ reason }, `lost the election: ${reason}`);
      this.onChange(false);
    } else if (reason !== this.lastFailure && !this.closed) {
      this.log.warn({ reason }, 'election: cannot reach PostgreSQL; retrying');
    }
    this.lastFailure = reason;
    // Ending the session releases the lock if PostgreSQL still holds it for this connection.
    void client?.end().catch(() => undefined);
  }
}
