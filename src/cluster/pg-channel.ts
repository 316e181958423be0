import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Logger } from 'pino';
import { CREATE_KEPT_SQL, KEEP_AND_NOTIFY_SQL, KEPT_LOCK, MISSED_SQL, NOTIFY_SQL, NOW_SQL } from './channel-sql.js';

// The PostgreSQL driver is loaded by the first connection: a daemon on the embedded store never loads it.
const load = createRequire(import.meta.url);
const driver = () => load('pg') as typeof pg;

/** Messages between the servers of one shared store, each delivered to every other server, in the order sent. */
export interface ClusterChannel {
  /**
   * Queued now, sent with the others of this turn; dropped (and logged) while PostgreSQL is away. With `keepUntil`
   * (epoch ms), kept instead: sent once PostgreSQL is back, and read again by a server that was not listening; such a
   * message can be heard twice (or after `keepUntil`), its hearer tells by its contents.
   */
  publish(message: unknown, keepUntil?: number): void;
  onMessage(hear: (message: unknown) => void): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

// NOTIFY payloads are limited to 8000 bytes: a message travels as pieces of at most this many ASCII characters.
const PIECE_CHARS = 7000;
const RETRY_MS = 1000;
// Pieces of one message arrive together (one transaction): more unfinished ones than this are leftovers, dropped oldest first.
const MAX_UNFINISHED = 100;
const MAX_PIECES = 10_000;
// Kept messages waiting for PostgreSQL, and read back on a reconnection: at most this many, the oldest dropped.
const MAX_KEPT = 10_000;

/** JSON with every non-ASCII character escaped, so that a piece's characters are its bytes. */
const asciiJson = (message: unknown) => JSON.stringify(message).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// Any role that can connect to the database may NOTIFY any channel: a message counts only when signed with the key the
// servers read from the shared store (a role that can read that can write the store itself).
const signatureOf = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');

/** `signature json`: what travels, in pieces or as a kept row. */
function signedTextOf(message: unknown, key: Buffer): string {
  const json = asciiJson(message);
  return `${signatureOf(key, json)} ${json}`;
}

/** The message of a signed text; throws when not signed with `key` or not JSON. */
function openSigned(whole: string, key: Buffer): unknown {
  const space = whole.indexOf(' ');
  const [signature, json] = [Buffer.from(whole.slice(0, Math.max(space, 0))), whole.slice(space + 1)];
  const expected = Buffer.from(signatureOf(key, json));
  if (space < 0 || signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new Error("a message not signed with the servers' key");
  return JSON.parse(json);
}

/** `id index count text`, the pieces of one message (sent in one statement: PostgreSQL delivers them in order). */
function piecesOf(text: string, id: string): string[] {
  const count = Math.max(1, Math.ceil(text.length / PIECE_CHARS));
  return Array.from({ length: count }, (_, i) => `${id} ${i} ${count} ${text.slice(i * PIECE_CHARS, (i + 1) * PIECE_CHARS)}`);
}

/** Puts pieces back together: the message once its last piece arrived, else null. */
class PieceAssembler {
  private readonly open = new Map<string, string[]>();

  /** Throws on a payload that is not a piece of a message, a message not signed with `key`, or one that is not JSON. */
  take(payload: string, key: Buffer): unknown | null {
    const [id = '', index = '', count = ''] = payload.split(' ', 3);
    const [i, n] = [Number(index), Number(count)];
    if (!Number.isInteger(i) || !Number.isInteger(n) || i < 0 || i >= n || n > MAX_PIECES)
      throw new Error(`not a piece of a message: ${JSON.stringify(payload.slice(0, 40))}`);
    const text = payload.slice(id.length + index.length + count.length + 3);
    const parts = this.open.get(id) ?? [];
    parts[i] = text;
    if (i + 1 < n) {
      this.open.set(id, parts);
      if (this.open.size > MAX_UNFINISHED) this.open.delete(this.open.keys().next().value!);
      return null;
    }
    this.open.delete(id);
    return openSigned(parts.join(''), key);
  }
}

/** A message waiting for this turn's statement; `until` when kept. */
interface Outgoing {
  /** The order published: batches sent again keep it. */
  readonly seq: number;
  readonly id: string;
  readonly text: string;
  readonly until?: number;
}

// A NOTIFY reaches only the servers listening when it commits: a kept message is also written as a row in the same
// transaction, which a server reads back after each reconnection; the sender holds it while its own connection is away.
/**
 * A channel over PostgreSQL's LISTEN/NOTIFY, on one connection of its own: what this server publishes in a turn goes
 * in one statement; what it hears from itself is skipped. Reconnects each second while PostgreSQL is away.
 */
export class PgChannel implements ClusterChannel {
  private client: pg.Client | null = null;
  private closed = false;
  private queued: Outgoing[] = [];
  private flushing = false;
  private sending: Promise<unknown> = Promise.resolve();
  private retry: NodeJS.Timeout | null = null;
  private away = '';
  private readonly hearers: ((message: unknown) => void)[] = [];
  private readonly assembler = new PieceAssembler();
  private readonly log: Logger;
  private key: Buffer | null = null;
  /** This process in the kept rows: its own are not read back. */
  private readonly sender = randomUUID();
  /** The database's time when this process first listened: kept rows from then on may have been missed. */
  private since: Date | null = null;
  private tableReady = false;
  private published = 0;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
    logger: Logger,
    /** The servers' shared key, read when the channel starts (the store is open by then). */
    private readonly keyOf: () => string,
  ) {
    this.log = logger.child({ component: 'cluster channel', channel });
  }

  onMessage(hear: (message: unknown) => void): void {
    this.hearers.push(hear);
  }

  async start(): Promise<void> {
    this.key = Buffer.from(this.keyOf());
    await this.connect().catch((error) => this.lost(error));
  }

  publish(message: unknown, keepUntil?: number): void {
    if (!this.key || (!this.client && keepUntil === undefined)) return this.dropped();
    const outgoing = {
      seq: this.published++,
      id: randomUUID(),
      text: signedTextOf(message, this.key),
      ...(keepUntil === undefined ? {} : { until: keepUntil }),
    };
    this.queued.push(outgoing);
    if (!this.client) return this.trim();
    this.flushSoon();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.sending;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private flushSoon(): void {
    if (this.flushing || this.queued.length === 0) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  /** While away only kept messages wait, at most MAX_KEPT of them. */
  private trim(): void {
    if (this.queued.length <= MAX_KEPT) return;
    const over = this.queued.length - MAX_KEPT;
    this.queued.splice(0, over);
    this.log.warn({ dropped: over, kept: MAX_KEPT }, 'cluster channel away: more kept messages than it holds, the oldest dropped');
  }

  private flush(): void {
    this.flushing = false;
    const batch = this.queued;
    this.queued = [];
    const client = this.client;
    const kept = batch.filter((m) => m.until !== undefined);
    if (!client) return void (this.queued = kept);
    if (batch.length === 0) return;
    const pieces = batch.flatMap((m) => piecesOf(m.text, m.id));
    // One statement per turn, in the order published: the notifications of one transaction arrive in that order.
    const send = () =>
      kept.length === 0
        ? client.query(NOTIFY_SQL, [this.channel, pieces])
        : client.query(KEEP_AND_NOTIFY_SQL, [this.channel, pieces, this.sender, kept.map((m) => m.id), kept.map((m) => m.until), kept.map((m) => m.text)]);
    this.sending = this.sending.then(() =>
      send().catch((error) => {
        // Sent or not, unknown: sent again, a kept row is not stored twice and its hearers tell a repeat by its contents.
        this.queued = [...kept, ...this.queued.filter((m) => m.until !== undefined)].sort((a, b) => a.seq - b.seq);
        this.trim();
        this.lost(error);
      }),
    );
  }

  private async connect(): Promise<void> {
    const client = new (driver().Client)({ ...this.connection, application_name: 'checkbridge channel', keepAlive: true });
    // Heard before the kept rows are read back: held until they are, so that what was missed comes first.
    let held: string[] | null = [];
    client.on('error', (error) => client === this.client && this.lost(error));
    client.on('end', () => client === this.client && this.lost(new Error('the connection to PostgreSQL closed')));
    client.on('notification', (note) => {
      if (note.processId === (client as unknown as { processID: number }).processID || note.payload === undefined) return;
      if (held) held.push(note.payload);
      else this.hear(note.payload);
    });
    let missed: string[] = [];
    try {
      await client.connect();
      if (!this.tableReady) await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${KEPT_LOCK[0]}, ${KEPT_LOCK[1]}); ${CREATE_KEPT_SQL}; COMMIT`);
      this.tableReady = true;
      await client.query(`LISTEN ${driver().escapeIdentifier(this.channel)}`);
      if (this.since === null) this.since = (await client.query<{ now: Date }>(NOW_SQL)).rows[0]!.now;
      else missed = (await client.query<{ text: string }>(MISSED_SQL, [this.channel, this.sender, this.since, MAX_KEPT])).rows.map((r) => r.text);
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    this.client = client;
    if (this.away) this.log.info({ kept: missed.length }, 'cluster channel connected again');
    this.away = '';
    for (const text of missed) this.readBack(text);
    const early = held;
    held = null;
    for (const payload of early) this.hear(payload);
    this.flushSoon();
  }

  private readBack(text: string): void {
    if (!this.key) return;
    try {
      this.deliver(openSigned(text, this.key));
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'cluster channel: a kept message that does not parse, dropped');
    }
  }

  private hear(payload: string): void {
    if (!this.key) return;
    let message: unknown;
    try {
      message = this.assembler.take(payload, this.key);
    } catch (error) {
      return this.log.warn({ err: (error as Error).message }, 'cluster channel: a message that does not parse, dropped');
    }
    if (message !== null) this.deliver(message);
  }

  private deliver(message: unknown): void {
    // Called from the connection's notification event: one listener's error must not end the process.
    for (const hear of this.hearers) {
      try {
        hear(message);
      } catch (error) {
        this.log.error({ err: (error as Error).message }, 'cluster channel: a message could not be taken, dropped');
      }
    }
  }
  private dropped(): void {
    this.log.debug('cluster channel away: a message to the other servers dropped');
  }

  private lost(error: unknown): void {
    const reason = (error as Error).message || String(error);
    const client = this.client;
    this.client = null;
    void client?.end().catch(() => undefined);
    if (this.closed) return;
    if (reason !== this.away) this.log.warn({ reason }, 'cluster channel: cannot reach PostgreSQL; retrying each second');
    this.away = reason;
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect().catch((e) => this.lost(e));
    }, RETRY_MS);
  }
}
