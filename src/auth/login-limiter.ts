import { clientKey } from './client-address.js';
import type { ReadClock } from '../schedule/index.js';

/** Who a login attempt is from and for: each is limited on its own. */
export interface LoginKey {
  readonly address: string;
  readonly username: string;
}

/** A reserved attempt: it counts against the limits while in flight; `failed` keeps it counted for the window. */
export interface LoginTicket {
  /** From the name's own side (a recent success from this client, or a client without failures): its password work goes first. */
  readonly priority: boolean;
  failed(): void;
  /** The password matched: this client is trusted for this name for a while, whoever else guesses at it. */
  succeeded(): void;
  /** Over without a failure and without a success (no password work done): it stops counting. */
  release(): void;
}

interface Tally {
  failures: number[];
  inFlight: number;
}

// How long a success keeps its client trusted for that name: about a working day, as long as a session lasts.
const TRUST_MS = 12 * 3600_000;
// A full table is swept for finished tallies at most this often: a spray of new keys cannot make every attempt a sweep.
const SWEEP_MS = 1000;

/**
 * Password attempts per client (address, or IPv6 /64) and per username in a sliding window, counted before the work:
 * in-flight attempts and failures count, so concurrent guesses cannot all be checked, and only a few run at once. Past a
 * limit the caller waits (429). The per-name limit stops a spray from many clients, but never locks out the name's owner:
 * a client that signed in as that name recently, or that has no failures, is only held to the per-name concurrency (the
 * former not even that). A tally with attempts in flight or failures in the window is never dropped to make room.
 */
export class LoginLimiter {
  private readonly addresses = new Map<string, Tally>();
  private readonly users = new Map<string, Tally>();
  // When each (client, name) pair last signed in; dropping the oldest only loses a client's head start.
  private readonly successes = new Map<string, number>();
  private readonly swept = new WeakMap<Map<string, Tally>, number>();

  constructor(
    readonly clock: ReadClock,
    private readonly maxPerAddress = 20,
    private readonly windowMs = 60_000,
    // Higher than an address's: a spray from many addresses against one name is slowed, its owner is not locked out for long.
    private readonly maxPerUser = 100,
    // Checks running at once for one address or one name: an attacker holds this many places in the password pool's queue.
    private readonly maxInFlight = 4,
    // Bounded so that a spray from many addresses or names cannot grow memory without end.
    private readonly maxKeys = 10_000,
  ) {}

  /** A ticket for one attempt, or the seconds to wait before trying again. Nothing is recorded for a refusal. */
  reserve(key: LoginKey): LoginTicket | { readonly retryAfter: number } {
    const [addressKey, userKey] = [clientKey(key.address), key.username.slice(0, 255)];
    const pair = `${addressKey}\u0000${userKey}`;
    const found = { address: this.addresses.get(addressKey), user: this.users.get(userKey) };
    const trusted = (this.successes.get(pair) ?? -Infinity) > this.clock.now() - TRUST_MS;
    const clean = this.recent(found.address).length === 0;
    const userWait = trusted ? 0 : clean ? (found.user && found.user.inFlight >= this.maxInFlight ? 1 : 0) : this.wait(found.user, this.maxPerUser);
    const wait = Math.max(this.wait(found.address, this.maxPerAddress), userWait);
    if (wait > 0) return { retryAfter: wait };
    // A full table of live tallies takes no new client; a new name only from the owner's side, counted for this attempt alone.
    const address = found.address ?? this.admit(this.addresses, addressKey) ?? (trusted ? fresh() : null);
    const user = found.user ?? this.admit(this.users, userKey) ?? (trusted || clean ? fresh() : null);
    if (!address || !user) return { retryAfter: 1 };
    const held: [Map<string, Tally>, string, Tally][] = [
      [this.addresses, addressKey, address],
      [this.users, userKey, user],
    ];
    for (const [, , tally] of held) tally.inFlight += 1;
    let open = true;
    const close = (outcome: 'failed' | 'succeeded' | 'released') => {
      if (!open) return;
      open = false;
      if (outcome === 'succeeded') this.trust(pair);
      for (const [map, name, tally] of held) {
        tally.inFlight -= 1;
        if (outcome === 'failed') tally.failures = [...this.recent(tally), this.clock.now()].slice(-this.maxPerUser);
        if (tally.inFlight === 0 && tally.failures.length === 0 && map.get(name) === tally) map.delete(name);
      }
    };
    return { priority: trusted || clean, failed: () => close('failed'), succeeded: () => close('succeeded'), release: () => close('released') };
  }

  private recent(tally: Tally | undefined): number[] {
    if (!tally) return [];
    const since = this.clock.now() - this.windowMs;
    if (tally.failures.length > 0 && tally.failures[0]! <= since) tally.failures = tally.failures.filter((at) => at > since);
    return tally.failures;
  }

  private wait(tally: Tally | undefined, limit: number): number {
    if (!tally) return 0;
    const failures = this.recent(tally);
    if (failures.length + tally.inFlight < limit && tally.inFlight < this.maxInFlight) return 0;
    // Attempts in flight fill it: one second; otherwise until the oldest failure leaves the window.
    if (failures.length < limit) return 1;
    return Math.max(1, Math.ceil((failures[failures.length - limit]! + this.windowMs - this.clock.now()) / 1000));
  }

  /** A new tally in `map`, once finished ones are swept out if it is full; null while it is full of live ones. */
  private admit(map: Map<string, Tally>, key: string): Tally | null {
    if (map.size >= this.maxKeys && (this.swept.get(map) ?? -Infinity) <= this.clock.now() - SWEEP_MS) {
      this.swept.set(map, this.clock.now());
      for (const [name, tally] of map) if (tally.inFlight === 0 && this.recent(tally).length === 0) map.delete(name);
    }
    if (map.size >= this.maxKeys) return null;
    const tally = fresh();
    map.set(key, tally);
    return tally;
  }

  private trust(pair: string): void {
    this.successes.delete(pair);
    this.successes.set(pair, this.clock.now());
    if (this.successes.size > this.maxKeys) this.successes.delete(this.successes.keys().next().value!);
  }
}

const fresh = (): Tally => ({ failures: [], inFlight: 0 });

const shared = new WeakMap<object, LoginLimiter>();
/** The one limiter of every door that checks a password (the v2 API's and the agent WebSocket's), per store. */
export function loginLimiterFor(store: object, clock: ReadClock): LoginLimiter {
  let limiter = shared.get(store);
  if (!limiter) shared.set(store, (limiter = new LoginLimiter(clock)));
  return limiter;
}
