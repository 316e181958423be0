import type { Logger } from 'pino';
import type { Clock } from '../schedule/index.js';
import { Scheduler, type timingOf } from '../schedule/index.js';

type Timing = ReturnType<typeof timingOf>;

/** Why nothing is scheduled now: not elected, the broker away (legacy checks only), or stopped. */
export type ScheduleHold = 'not elected' | 'broker away' | 'stopped';

export interface CheckDispatcherDeps {
  readonly clock: Clock;
  /** The scheduler's own logger: its lines keep their component. */
  readonly log: Logger;
  /** Whether scheduling starts at once; false waits for `resume('not elected')` (a server not yet elected). */
  readonly scheduling?: boolean | undefined;
  /** Checked as each request fires: false skips it (an elected server not confirmed since a stall). */
  readonly leading?: (() => boolean) | undefined;
  /** Called at each armed instant with the key it was armed under. */
  readonly fire: (key: string, at: number) => void;
}

/** How one request reaches a subscription's members, in the request format of the scheduler that built it. */
export interface Delivery<Member> {
  /** The members taking turns for a round-robin subscription, or null to send to every member at once. */
  ring(subscription: string): readonly Member[] | null;
  broadcast(subscription: string): void;
  send(subscription: string, member: Member): void;
}

/**
 * What both schedulers share, whatever their timing dialect and request format: the timers, pause and resume, the
 * leadership check as a request fires, splayed delivery of a proxy fan-out, and the round-robin rings.
 */
export class CheckDispatcher {
  private readonly timers: Scheduler;
  /** No request is armed or sent by a timer while any holds. */
  private readonly holds = new Set<ScheduleHold>();
  // Counts pauses: a splayed request armed before a pause is never sent after it, even once scheduling resumes.
  private term = 0;
  /** Per check key, per round-robin subscription, the next turn. */
  private readonly rings = new Map<string, Map<string, number>>();

  constructor(private readonly deps: CheckDispatcherDeps) {
    if (deps.scheduling === false) this.holds.add('not elected');
    this.timers = new Scheduler(deps.clock, deps.fire);
  }

  /** Whether anything holds scheduling now. */
  get held(): boolean {
    return this.holds.size > 0;
  }

  /** Arms (or re-arms) `key` on `timing`. */
  arm(key: string, timing: Timing): void {
    this.timers.set(key, timing);
  }

  disarm(key: string): void {
    this.timers.remove(key);
  }

  armed(): string[] {
    return this.timers.names();
  }

  /** Holds scheduling while `why` holds: every timer cancelled, splayed requests already armed dropped. */
  pause(why: ScheduleHold): void {
    this.holds.add(why);
    this.term++;
    this.timers.stop();
  }

  /** Ends `why`; true when nothing holds any more (the scheduler arms its checks again). */
  resume(why: ScheduleHold): boolean {
    return this.holds.delete(why) && this.holds.size === 0;
  }

  /** Whether a request firing now may go out: not while leadership is unconfirmed (logged with `fields`). */
  leads(fields: object): boolean {
    if (!this.deps.leading || this.deps.leading()) return true;
    this.deps.log.debug(fields, 'check request skipped: leadership not confirmed');
    return false;
  }

  /** Whether a request delayed from now is still to be sent when its time comes: no pause since, and leadership confirmed then. */
  inTerm(): () => boolean {
    const term = this.term;
    return () => this.holds.size === 0 && this.term === term && (!this.deps.leading || this.deps.leading());
  }

  /** Sends at once when `delayMs` is 0, else at `at + delayMs` if `still()` then; `send` gets the instant it is issued. */
  deliverAfter(at: number, delayMs: number, still: () => boolean, send: (issuedAt: number) => void): void {
    if (delayMs === 0) return send(at);
    this.deps.clock.at(at + delayMs, () => still() && send(this.deps.clock.now()));
  }

  /**
   * Delivers one request of `check` (logged with `named` and `issued`) to each subscription once, however often it is
   * listed: to every member, or to the next in turn of a ring.
   */
  deliver<Member>(check: string, subscriptions: readonly string[], delivery: Delivery<Member>, named: object, issued: unknown): void {
    const log = this.deps.log;
    // Fields built only for a line that is written: a request per subscription is the hot path.
    const debug = log.isLevelEnabled('debug');
    // A list repeating one subscription would otherwise send its members one request per repeat.
    for (const subscription of new Set(subscriptions)) {
      const ring = delivery.ring(subscription);
      if (ring === null) {
        if (debug) log.debug({ ...named, subscription, issued }, 'publishing check request');
        delivery.broadcast(subscription);
        continue;
      }
      if (ring.length === 0) {
        log.warn({ ...named, subscription }, 'no member of the round-robin subscription to run the check');
        continue;
      }
      const target = this.nextInTurn(check, subscription, ring);
      if (debug) log.debug({ ...named, subscription, target, issued }, 'publishing round-robin check request');
      delivery.send(subscription, target);
    }
  }

  /** Forgets the turns of the checks `gone` says are gone. */
  forgetRings(gone: (check: string) => boolean): void {
    for (const check of this.rings.keys()) if (gone(check)) this.rings.delete(check);
  }

  private nextInTurn<Member>(check: string, subscription: string, ring: readonly Member[]): Member {
    let turns = this.rings.get(check);
    if (!turns) this.rings.set(check, (turns = new Map()));
    const turn = turns.get(subscription) ?? 0;
    turns.set(subscription, turn + 1);
    return ring[turn % ring.length]!;
  }
}
