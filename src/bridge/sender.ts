import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import type * as Undici from 'undici';
import type { Logger } from 'pino';
import type { Outbox, OutboxRow } from '../store/index.js';
import type { BridgeConfig } from './config.js';
import { errorBodyMessage } from '../v2/index.js';
import { checkServerIdentity, connectFailureText } from '../tls/index.js';
import { systemClock, type ReadClock } from '../schedule/index.js';

// The HTTP client is loaded by the first request: a daemon that never makes one never loads it.
const load = createRequire(import.meta.url);
const undici = () => load('undici') as typeof Undici;

type Outcome = { kind: 'delivered' } | { kind: 'dead'; status: number; message: string } | { kind: 'retry'; reason: string };

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

/** 2xx delivered; 408, 429, 401, 403 and 5xx are the backend's state (retry); other 4xx are this event's fault (dead letter). */
function classify(status: number, text: string): Outcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const message = errorBodyMessage(text);
  if (status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)) return { kind: 'dead', status, message: message || `HTTP ${status}` };
  return { kind: 'retry', reason: `HTTP ${status}${message ? `: ${message}` : ''}` };
}

// How soon a send held back by unconfirmed leadership is tried again.
const FENCE_RETRY_MS = 250;

/**
 * Drains the outbox to a v2 backend: one PUT per event over keep-alive connections, at most one in flight per
 * entity/check (order kept), several checks at once; a failing backend pauses all sends with capped, jittered backoff.
 */
export class BridgeSender {
  private readonly agent: Agent;
  private readonly inFlight = new Set<string>();
  // Heads read in one query and sent from memory: re-reading per send was quadratic in the outbox depth.
  private ready: OutboxRow[] = [];
  // The last sequence sent per entity/check: a stale head read before its delivery is never sent twice.
  private readonly sentUpTo = new Map<string, number>();
  private active = 0;
  private failures = 0;
  private pausedUntil = 0;
  private state = 'starting';
  // Until `start`: a server not elected keeps its outbox for the one that is.
  private halted = true;
  private scheduled: NodeJS.Timeout | null = null;
  // Asked before each pump: a server back from a stall sends nothing until its leadership is confirmed again.
  private leading: () => boolean = () => true;
  private readonly idle: (() => void)[] = [];
  private readonly log: Logger;
  // Acknowledgements of one turn removed in one transaction, not one each. A crash before it re-sends those rows:
  // the backend's replay guard (same id and sequence) makes that harmless.
  private acknowledged: number[] = [];

  constructor(
    private readonly outbox: Outbox,
    private readonly config: BridgeConfig,
    logger: Logger,
    private readonly clock: ReadClock = systemClock,
  ) {
    this.log = logger.child({ component: 'bridge', url: config.url });
    this.agent = new (undici().Agent)({
      connections: config.concurrency,
      keepAliveTimeout: 30_000,
      connect: { timeout: config.timeout * 1000, ...(config.tls ?? {}), checkServerIdentity },
    });
  }

  get status(): string {
    return this.state;
  }

  /** Starts (or resumes) sending. */
  start(): void {
    this.halted = false;
    this.kick();
  }

  /** Makes each send wait for `leading()`: the once-per-cluster sender of a server that may be elected. */
  fence(leading: () => boolean): void {
    this.leading = leading;
  }

  /** Stops sending (another server does it now): no new send starts; those in flight finish and are recorded. */
  pause(): void {
    this.halted = true;
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = null;
    // Heads read before the pause may be delivered by the other server meanwhile: read afresh on resume.
    this.ready = [];
  }

  /** New rows may be waiting: pump soon (coalesced). */
  kick(delayMs = 0): void {
    if (this.halted || this.scheduled) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = null;
      this.pump();
    }, delayMs);
  }

  private setState(next: string, fields: Record<string, unknown> = {}): void {
    if (next === this.state) return;
    const previous = this.state;
    this.state = next;
    if (next === 'delivering') this.log.info({ ...fields, previous, ...this.outbox.stats(this.clock.now()) }, 'bridge delivering');
    else this.log.warn({ ...fields, reason: next, ...this.outbox.stats(this.clock.now()) }, 'bridge cannot deliver: retrying with backoff');
  }

  private pump(): void {
    if (this.halted) return;
    const wait = this.pausedUntil - this.clock.now();
    if (wait > 0) return this.kick(wait);
    // Unconfirmed leadership is either confirmed again within a second or lost (then `pause` ends this).
    if (!this.leading()) return this.kick(FENCE_RETRY_MS);
    let refilled = false;
    while (this.active < this.config.concurrency) {
      if (this.ready.length === 0) {
        if (refilled) break;
        this.ready = this.outbox.heads(1000);
        refilled = true;
        continue;
      }
      const row = this.ready.shift()!;
      const key = `${row.namespace}\u0000${row.entity}\u0000${row.check}`;
      if (this.inFlight.has(key) || row.seq <= (this.sentUpTo.get(key) ?? 0)) continue;
      this.inFlight.add(key);
      this.sentUpTo.set(key, row.seq);
      this.active++;
      void this.send(row).then((outcome) => this.settle(row, key, outcome));
    }
    if (this.active === 0) this.idle.splice(0).forEach((resolve) => resolve());
  }

  private async send(row: OutboxRow): Promise<Outcome> {
    const path = `/api/core/v2/namespaces/${encodeURIComponent(row.namespace)}/events/${encodeURIComponent(row.entity)}/${encodeURIComponent(row.check)}`;
    try {
      const response = await undici().request(this.config.url + path, {
        method: 'PUT',
        dispatcher: this.agent,
        headers: { authorization: `Key ${this.config.apiKey}`, 'content-type': 'application/json' },
        // The row's sequence goes in front: the backend's replay guard (same id and sequence: already applied).
        body: `{"sequence":${row.seq},${row.body.slice(1)}`,
        headersTimeout: this.config.timeout * 1000,
        bodyTimeout: this.config.timeout * 1000,
      });
      return classify(response.statusCode, await response.body.text());
    } catch (error) {
      return { kind: 'retry', reason: connectFailureText(error) };
    }
  }

  private acknowledge(seq: number): void {
    if (this.acknowledged.push(seq) === 1) setImmediate(() => this.flushAcknowledged());
  }

  private flushAcknowledged(): void {
    const seqs = this.acknowledged;
    this.acknowledged = [];
    if (seqs.length === 0) return;
    try {
      this.outbox.delivered(...seqs);
    } catch (error) {
      // The store closed under a late answer: the rows stay in the outbox and go again (replays are harmless).
      this.log.warn({ err: error, rows: seqs.length }, 'bridge: could not record deliveries; they will be sent again');
    }
  }

  private settle(row: OutboxRow, key: string, outcome: Outcome): void {
    this.inFlight.delete(key);
    this.active--;
    if (this.halted) {
      if (outcome.kind === 'delivered') this.acknowledge(row.seq);
      if (this.active === 0) this.idle.splice(0).forEach((resolve) => resolve());
      return;
    }
    if (outcome.kind === 'delivered') {
      this.acknowledge(row.seq);
      this.failures = 0;
      this.setState('delivering');
    } else if (outcome.kind === 'dead') {
      this.outbox.deadLetter(row, outcome.status, outcome.message, this.clock.now());
      this.log.error(
        { seq: row.seq, entity: row.entity, check: row.check, status: outcome.status, message: outcome.message },
        'bridge: backend refused the event; moved to dead letters',
      );
    } else {
      this.sentUpTo.delete(key); // this row is the key's head again
      // Sends that fail together (one outage seen by every connection) count as one failure.
      if (this.clock.now() >= this.pausedUntil) this.failures++;
      const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(this.failures - 1, 16)) * (0.5 + Math.random() * 0.5);
      this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + delay);
      this.setState(outcome.reason);
    }
    this.pump();
  }

  /** Stops sending; waits (at most `ms`) for sends in flight, whose rows stay in the outbox unless delivered. */
  async stop(ms = 5000): Promise<void> {
    this.pause();
    if (this.active > 0) await Promise.race([new Promise<void>((resolve) => this.idle.push(resolve)), new Promise((r) => setTimeout(r, ms))]);
    this.flushAcknowledged();
    await this.agent.close().catch(() => undefined);
  }
}
