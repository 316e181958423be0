import type { Logger } from 'pino';
import type { StateStore, V2EventStore } from '../store/index.js';
import { isV2Event, type EventIntake, type IntakeEvent } from '../intake/index.js';
import type { ReadClock } from '../schedule/index.js';
import { typedEvent, type Entity, type Event } from '../v2/index.js';

/** Where a check's results are awaited: the event to fail when none comes (the entity that last reported, for round robin). */
export interface TtlWatch {
  readonly key: string;
  readonly namespace: string;
  readonly entity: string;
  readonly check: string;
  readonly ttlS: number;
  /** The id of the event that armed it: another id in the store is a result this server did not take. */
  readonly eventId: unknown;
}

interface Armed {
  watch: TtlWatch;
  deadlineMs: number;
  // The deadline of this key's earliest entry in the heap, or null when it has none.
  queuedMs: number | null;
}

/**
 * The deadlines of every watched check in memory: a re-arm is a map write, and a pass reads only what lapsed (a binary
 * heap with at most one live entry per key), never every watch.
 */
export class TtlDeadlines {
  private readonly armed = new Map<string, Armed>();
  private readonly heap: { atMs: number; key: string }[] = [];

  get size(): number {
    return this.armed.size;
  }

  /** Entries in the heap, stale ones included: compacted when they outnumber twice the watches (plus a slack). */
  get queued(): number {
    return this.heap.length;
  }

  /** Arms (or re-arms) `key` to lapse at `deadlineMs`; `laterOnly` leaves a key armed later than that as it is. */
  arm(watch: TtlWatch, deadlineMs: number, laterOnly = false): void {
    const key = watch.key;
    const armed = this.armed.get(key);
    if (armed && laterOnly && armed.deadlineMs >= deadlineMs) return;
    if (!armed) {
      this.armed.set(key, { watch, deadlineMs, queuedMs: deadlineMs });
      return this.push(deadlineMs, key);
    }
    armed.watch = watch;
    armed.deadlineMs = deadlineMs;
    // A later deadline keeps the earlier entry, which re-queues itself when it surfaces; only an earlier one is pushed.
    if (armed.queuedMs === null || deadlineMs < armed.queuedMs) {
      armed.queuedMs = deadlineMs;
      this.push(deadlineMs, key);
    }
  }

  disarm(key: string): void {
    this.armed.delete(key);
  }

  // Disarmed keys leave their entries behind (a far deadline never surfaces): past the slack, the heap is rebuilt from the watches.
  private compactIfStale(): boolean {
    if (this.heap.length <= 2 * this.armed.size + COMPACT_SLACK) return false;
    const fresh: { atMs: number; key: string }[] = [];
    for (const [key, armed] of this.armed) {
      armed.queuedMs = armed.deadlineMs;
      fresh.push({ atMs: armed.deadlineMs, key });
    }
    // A sorted array is a valid binary heap.
    fresh.sort((a, b) => (a.atMs < b.atMs ? -1 : a.atMs > b.atMs ? 1 : 0));
    this.heap.length = 0;
    for (const entry of fresh) this.heap.push(entry);
    return true;
  }

  /** Removes and returns the watches whose deadline is at or before `nowMs`, earliest first; re-arm to keep watching. */
  lapsed(nowMs: number): TtlWatch[] {
    const out: TtlWatch[] = [];
    while (this.heap.length > 0 && this.heap[0]!.atMs <= nowMs) {
      const { atMs, key } = this.pop();
      const armed = this.armed.get(key);
      if (!armed || armed.queuedMs !== atMs) continue;
      if (armed.deadlineMs > nowMs) {
        armed.queuedMs = armed.deadlineMs;
        this.push(armed.deadlineMs, key);
        continue;
      }
      this.armed.delete(key);
      out.push(armed.watch);
    }
    return out;
  }

  // Every push is of an armed key at its deadline, so a rebuild already holds it.
  private push(atMs: number, key: string): void {
    if (this.compactIfStale()) return;
    const heap = this.heap;
    heap.push({ atMs, key });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.atMs <= heap[i]!.atMs) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  private pop(): { atMs: number; key: string } {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && heap[left]!.atMs < heap[least]!.atMs) least = left;
      if (right < heap.length && heap[right]!.atMs < heap[least]!.atMs) least = right;
      if (least === i) return top;
      [heap[least], heap[i]] = [heap[i]!, heap[least]!];
      i = least;
    }
  }
}

/** What a v2 event asks of the TTL monitor: a watch (ttl > 0), an end of watching (ttl 0), or nothing (keepalive, no check). */
export function watchOf(namespace: string, event: Event): { key: string; watch: TtlWatch | null } | null {
  const check = event.check;
  const checkName = check?.metadata?.name;
  const entity = event.entity?.metadata?.name;
  if (!check || typeof checkName !== 'string' || typeof entity !== 'string' || checkName === 'keepalive') return null;
  // Sensu Go keys a round-robin check's TTL by the check alone: any member's result keeps it alive.
  const key = check.round_robin === true ? `${namespace}\u0000\u0000${checkName}` : `${namespace}\u0000${entity}\u0000${checkName}`;
  const ttlS = Number(check.ttl);
  return { key, watch: Number.isFinite(ttlS) && ttlS > 0 ? { key, namespace, entity, check: checkName, ttlS, eventId: event.id } : null };
}

/** The TTL event of a stored event, as Sensu Go's eventd makes it: status 1, the age of the last execution, executed now. */
export function ttlEventOf(stored: Event, entity: Entity, nowS: number): Event {
  const { id: _id, ...event } = stored;
  const { duration: _d, issued: _i, hooks: _h, ...check } = stored.check ?? {};
  const age = nowS - Number(check.executed ?? 0);
  return { ...event, entity, timestamp: nowS, check: { ...check, output: `Last check execution was ${age} seconds ago`, status: 1, executed: nowS } };
}

export interface V2TtlDeps {
  readonly store: StateStore;
  /** Where v2 events live (the event store router): read when a watch lapses and once when watching starts. */
  readonly events: V2EventStore;
  readonly intake: EventIntake;
  readonly logger: Logger;
  readonly clock: ReadClock;
  /** Whether leadership is confirmed now: a server back from a stall fires nothing until it is. */
  readonly leading?: (() => boolean) | undefined;
}

// Stale heap entries tolerated beyond twice the watches before a rebuild: amortises it over many re-arms.
const COMPACT_SLACK = 1024;
// Sensu Go's eventd polls its operators each second.
const TICK_MS = 1000;
// Lapsed events submitted at once: a fleet lapsing together (after a restart) is committed in slices.
const FIRE_SLICE = 500;

/**
 * Check TTLs of v2 events (Sensu Go's eventd): each event that entered through the v2 door with `ttl` > 0 arms a deadline
 * for its entity and check; when it passes, a failing event enters the same door, is handled like any event, and re-arms.
 * Legacy results keep the legacy TTL monitor. Fed by the intake on every server; only the elected one fires.
 */
export class V2TtlMonitor {
  readonly deadlines = new TtlDeadlines();
  private timer: NodeJS.Timeout | undefined;
  private firing = false;
  private readonly log: Logger;

  constructor(private readonly deps: V2TtlDeps) {
    this.log = deps.logger.child({ component: 'ttl' });
  }

  /** The intake's listener: a v2 event re-arms (or ends) its check's watch; a legacy one is the legacy monitor's. */
  observe(emitted: IntakeEvent): void {
    if (!isV2Event(emitted)) return;
    const found = watchOf(emitted.namespace, emitted.event);
    if (!found) return;
    if (!found.watch) return this.deadlines.disarm(found.key);
    this.deadlines.arm(found.watch, this.deps.clock.now() + found.watch.ttlS * 1000);
  }

  /** Elected: the watches of stored v2 events are added (a restart or a takeover keeps them), then lapses fire each second. */
  async start(): Promise<void> {
    if (this.timer) return;
    this.timer = setInterval(() => void this.fire(), TICK_MS);
    await this.rebuild();
  }

  /** Not elected, or stopping: nothing fires here; the watches stay fed. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The stored v2 events that carry a ttl and were not written by a legacy result, each due a ttl after its timestamp. */
  private async rebuild(): Promise<void> {
    let watched = 0;
    for (const event of await this.deps.events.list({ namespace: null })) {
      const namespace = String(event.metadata?.namespace ?? event.entity?.metadata?.namespace ?? '');
      const found = watchOf(namespace, event);
      if (!found?.watch || this.deps.store.getResult(found.watch.entity, found.watch.check)) continue;
      this.deadlines.arm(found.watch, (this.basisS(event) + found.watch.ttlS) * 1000, true);
      watched++;
    }
    this.log.info({ watched }, 'check TTLs of v2 events watched');
  }

  // The event's timestamp, unless it lies in the future (a sender's clock ahead): then now.
  private basisS(event: Event): number {
    const nowS = Math.floor(this.deps.clock.now() / 1000);
    const at = Number(event.timestamp ?? event.check?.executed);
    return Number.isFinite(at) && at > 0 && at <= nowS ? at : nowS;
  }

  private async fire(): Promise<void> {
    if (this.firing || (this.deps.leading && !this.deps.leading())) return;
    this.firing = true;
    try {
      const lapsed = this.deadlines.lapsed(this.deps.clock.now());
      for (let at = 0; at < lapsed.length && this.timer; at += FIRE_SLICE)
        await Promise.allSettled(lapsed.slice(at, at + FIRE_SLICE).map((watch) => this.lapse(watch)));
    } finally {
      this.firing = false;
    }
  }

  /** One lapsed watch: checked against the store (deleted, ttl gone, newer result, keepalive failing), then failed. */
  private async lapse(watch: TtlWatch): Promise<void> {
    const { store, events, intake, clock } = this.deps;
    const fields = { namespace: watch.namespace, entity: watch.entity, check: watch.check };
    try {
      const entity: Entity | null = store.resources.getEntity(watch.namespace, watch.entity);
      const stored: Event | null = entity ? await events.get(watch.namespace, watch.entity, watch.check) : null;
      const found = stored ? watchOf(watch.namespace, stored) : null;
      // Entity or event deleted, or its latest event without a ttl: Sensu Go checks the watch out.
      if (!entity || !stored || !found?.watch) return;
      // A result another server stored (not the event that armed the watch; its own clock may be ahead), or a failing
      // keepalive (legacy suppresses TTL events then): watch on.
      const dueMs = stored.id !== watch.eventId ? (this.basisS(stored) + found.watch.ttlS) * 1000 : 0;
      if (dueMs > clock.now() || store.getEvent(watch.entity, 'keepalive'))
        return this.rearm(found.watch, dueMs > clock.now() ? dueMs : clock.now() + found.watch.ttlS * 1000);
      // Leadership lost or unconfirmed while the store answered: the next tick decides.
      if (this.deps.leading && !this.deps.leading()) return this.rearm(watch, clock.now());
      this.log.warn(fields, 'check TTL expired');
      // Stored, the TTL event comes back through `observe`, which re-arms the watch: it reports each ttl until results resume.
      // Made of a stored event and entity, typed as any event the intake takes.
      const { value: event, problem } = typedEvent(ttlEventOf(stored, entity, Math.floor(clock.now() / 1000)));
      const answer = event ? await intake.submitEvent(watch.namespace, event) : { ok: false as const, message: problem };
      if (answer.ok) return;
      this.log.warn(fields, `check TTL event refused: ${answer.message}`);
    } catch (error) {
      this.log.error({ ...fields, err: error }, 'check TTL event not stored');
    }
    this.rearm(watch, clock.now() + watch.ttlS * 1000);
  }

  // Unless a newer result re-armed it meanwhile.
  private rearm(watch: TtlWatch, deadlineMs: number): void {
    this.deadlines.arm(watch, deadlineMs, true);
  }
}
