import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import type { WireTransport } from '../transport/index.js';
import { DEFAULT_RESULT_BUFFER } from '../config/index.js';
import { RESULT_ID_RETENTION_MS } from '../legacy/index.js';

/**
 * Results the broker confirmed this long before its last confirmation are sent again after a connection loss: a
 * confirmed result waits in a queue that is not durable, and a broker killed with it loses it. Measured under the fault
 * test's load, a result lost that way had been confirmed at most a few hundred milliseconds before; 5 s is the margin.
 */
export const RESEND_WINDOW_MS = 5_000;

/** The legacy result body: `{client, check, signature}` in that order; `result_id` after them, which Sensu 1.x ignores. */
function resultBody(result: CheckResult, id: string | undefined): string {
  return JSON.stringify({
    client: result.client,
    check: result.check,
    ...(result.signature !== undefined ? { signature: result.signature } : {}),
    ...(id !== undefined ? { result_id: id } : {}),
  });
}

/** One result until it has left for good: waiting to be sent, sent (unconfirmed), or confirmed at `confirmedAt`. */
interface Entry {
  readonly body: string;
  readonly id: string | undefined;
  state: 'waiting' | 'sent' | 'confirmed';
  confirmedAt: number;
  /** Which send a confirmation answers: one from an earlier send is ignored. */
  attempt: number;
}

/**
 * A client's results go to the `results` pipe. While not connected they wait in memory, up to `limit` (legacy drops
 * them), and are published in order once the transport is back. Where the broker confirms (RabbitMQ), each result
 * carries an id and is kept until confirmed, and then for RESEND_WINDOW_MS more; after a connection loss the unconfirmed
 * ones and those confirmed within the window are sent again, in order. A server recognises a copy by its id.
 */
export class WireResults implements ResultIntake {
  private entries: Entry[] = [];
  private head = 0;
  private waiting = 0;
  private dropped = 0;
  private trimmed = 0;
  private lastConfirmAt = 0;
  private retry: NodeJS.Timeout | undefined;
  private readonly confirms: boolean;
  private readonly log: Logger;

  constructor(
    private readonly transport: WireTransport,
    logger: Logger,
    private readonly limit: () => number = () => DEFAULT_RESULT_BUFFER,
  ) {
    this.log = logger.child({ component: 'results' });
    this.confirms = typeof transport.sendConfirmed === 'function';
    // Declared from here too (legacy flags, so wire-compatible): what is flushed before a server has declared
    // `results` again after a broker restart waits in it rather than being dropped as unroutable.
    transport.route('results', 'results');
    transport.onConnected(() => this.reconnected());
  }

  /** Results held: waiting to be sent, awaiting confirmation, or kept for the window. */
  get buffered(): number {
    return this.entries.length - this.head;
  }

  async submit(result: CheckResult): Promise<void> {
    // Random, never a sequence: an id seen on the broker tells nothing of the next.
    const id = this.confirms ? randomUUID() : undefined;
    const entry: Entry = { body: resultBody(result, id), id, state: 'waiting', confirmedAt: 0, attempt: 0 };
    if (this.waiting === 0 && this.send(entry)) {
      if (this.confirms) this.entries.push(entry);
    } else {
      this.entries.push(entry);
      if (this.waiting++ === 0) this.log.warn('transport is not connected: buffering results until it is');
    }
    this.bound();
  }

  /** Sends it; false, and it stays waiting, when the transport is not connected. */
  private send(entry: Entry): boolean {
    const attempt = ++entry.attempt;
    const sent = this.confirms
      ? this.transport.sendConfirmed!('results', entry.body, (confirmed) => this.settled(entry, attempt, confirmed))
      : this.transport.send('direct', 'results', entry.body);
    if (sent) entry.state = 'sent';
    // Not sent: no answer will come, and it does not count as sent before.
    else entry.attempt--;
    return sent;
  }

  private settled(entry: Entry, attempt: number, confirmed: boolean): void {
    if (entry.attempt !== attempt || entry.state !== 'sent') return;
    if (confirmed) {
      entry.state = 'confirmed';
      entry.confirmedAt = this.lastConfirmAt = Date.now();
      return this.forgetConfirmed();
    }
    // Refused, or its connection went: it waits for the next flush (never at once, as the closing channel answers).
    entry.state = 'waiting';
    this.waiting++;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.flush(), 1000).unref();
  }

  /** The confirmed ones at the head that left the window: measured from the last confirmation, not the clock. */
  private forgetConfirmed(): void {
    const since = this.lastConfirmAt - RESEND_WINDOW_MS;
    while (this.head < this.entries.length && this.entries[this.head]!.state === 'confirmed' && this.entries[this.head]!.confirmedAt < since) this.head++;
    this.compact();
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** Over the bound, the oldest go: a confirmed one only leaves its window early; any other is a result lost. */
  private bound(): void {
    const limit = Math.max(0, this.limit());
    while (this.buffered > limit) {
      const oldest = this.entries[this.head++]!;
      if (oldest.state === 'confirmed') {
        if (this.trimmed++ % 1000 === 0)
          this.log.warn({ trimmed: this.trimmed, limit }, 'result buffer full: confirmed results leave the re-send window early');
        continue;
      }
      if (oldest.state === 'waiting') this.waiting--;
      if (this.dropped++ % 1000 === 0) this.log.error({ dropped: this.dropped, limit }, 'result buffer full: dropping the oldest results');
    }
    this.compact();
  }

  /** After a connection loss: the unconfirmed and the recently confirmed go again, in order, before anything new. */
  private reconnected(): void {
    clearTimeout(this.retry);
    const since = this.lastConfirmAt - RESEND_WINDOW_MS;
    // A copy older than the servers remember their ids by could be handled twice: a confirmed one that old stays out.
    const recognised = Date.now() - RESULT_ID_RETENTION_MS / 2;
    const kept: Entry[] = [];
    const counts = { unconfirmed: 0, confirmed: 0, too_old: 0 };
    for (const entry of this.entries.slice(this.head)) {
      if (entry.state === 'confirmed' && (entry.confirmedAt < since || entry.confirmedAt < recognised)) {
        if (entry.confirmedAt >= since) counts.too_old++;
        continue;
      }
      // Sent before and not confirmed: still awaiting its answer, or refused when the connection went.
      const unconfirmed = entry.state === 'sent' || (entry.state === 'waiting' && entry.attempt > 0);
      if (unconfirmed) counts.unconfirmed++;
      if (entry.state === 'confirmed') counts.confirmed++;
      if (unconfirmed || entry.state === 'confirmed') {
        this.log.debug(
          { result_id: entry.id, confirmed_ms_before: entry.state === 'confirmed' ? this.lastConfirmAt - entry.confirmedAt : null },
          're-sending result',
        );
        if (entry.state !== 'waiting') this.waiting++;
        entry.state = 'waiting';
      }
      kept.push(entry);
    }
    this.entries = kept;
    this.head = 0;
    if (counts.unconfirmed + counts.confirmed + counts.too_old > 0)
      this.log.info({ ...counts, window_ms: RESEND_WINDOW_MS }, 're-sending results the broker may have lost with the connection');
    this.flush();
  }

  /** What waits, in order, while the transport takes it. */
  private flush(): void {
    let sent = 0;
    for (let i = this.head; i < this.entries.length && this.waiting > 0; i++) {
      const entry = this.entries[i]!;
      if (entry.state !== 'waiting') continue;
      if (!this.send(entry)) break;
      this.waiting--;
      sent++;
    }
    if (!this.confirms) {
      // Without confirmations a sent result is gone from here.
      this.entries = this.entries.filter((entry) => entry.state === 'waiting');
      this.head = 0;
    }
    if (sent > 0) this.log.info({ published: sent, still_buffered: this.waiting }, 'published buffered results');
  }
}
