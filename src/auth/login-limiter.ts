/** Who a login attempt is from and for: each is limited on its own. */
export interface LoginKey {
  readonly address: string;
  readonly username: string;
}

/** A reserved attempt: it counts against the limits while in flight; `failed` keeps it counted for the window. */
export interface LoginTicket {
  failed(): void;
  /** Over without a failure (a success, or no password work done): it stops counting. */
  release(): void;
}

interface Tally {
  failures: number[];
  inFlight: number;
}

/**
 * Password attempts per client address and per username in a sliding window, counted before the work: in-flight
 * attempts and failures count, so concurrent guesses cannot all be checked, and only a few run at once. Past a limit
 * the caller waits (429).
 */
export class LoginLimiter {
  private readonly addresses = new Map<string, Tally>();
  private readonly users = new Map<string, Tally>();

  constructor(
    readonly now: () => number,
    private readonly maxPerAddress = 20,
    private readonly windowMs = 60_000,
    // Higher than an address's: a spray from many addresses against one name is slowed, its owner is not locked out for long.
    private readonly maxPerUser = 100,
    // Checks running at once for one address or one name: an attacker holds this many places in the password pool's queue.
    private readonly maxInFlight = 4,
    // Bounded so that a spray from many addresses or names cannot grow memory without end.
    private readonly maxKeys = 10_000,
  ) {}

  /** A ticket for one attempt, or the seconds to wait before trying again. */
  reserve(key: LoginKey): LoginTicket | { readonly retryAfter: number } {
    // One client over IPv4 or dual-stack IPv6 is one address.
    const address = this.tally(this.addresses, key.address.replace(/^::ffff:/, ''));
    const user = this.tally(this.users, key.username.slice(0, 255));
    const wait = Math.max(this.wait(address, this.maxPerAddress), this.wait(user, this.maxPerUser));
    if (wait > 0) return { retryAfter: wait };
    address.inFlight += 1;
    user.inFlight += 1;
    let open = true;
    const close = (failed: boolean) => {
      if (!open) return;
      open = false;
      for (const tally of [address, user]) {
        tally.inFlight -= 1;
        if (failed) tally.failures.push(this.now());
      }
    };
    return { failed: () => close(true), release: () => close(false) };
  }

  private wait(tally: Tally, limit: number): number {
    const since = this.now() - this.windowMs;
    tally.failures = tally.failures.filter((at) => at > since);
    if (tally.failures.length + tally.inFlight < limit && tally.inFlight < this.maxInFlight) return 0;
    // Attempts in flight fill it: one second; otherwise until the oldest failure leaves the window.
    if (tally.failures.length < limit) return 1;
    return Math.max(1, Math.ceil((tally.failures[tally.failures.length - limit]! + this.windowMs - this.now()) / 1000));
  }

  private tally(map: Map<string, Tally>, key: string): Tally {
    const found = map.get(key) ?? { failures: [], inFlight: 0 };
    // Most recently used last, so the oldest is the one dropped.
    map.delete(key);
    map.set(key, found);
    if (map.size > this.maxKeys) map.delete(map.keys().next().value!);
    return found;
  }
}

const shared = new WeakMap<object, LoginLimiter>();
/** The one limiter of every door that checks a password (the v2 API's and the agent WebSocket's), per store. */
export function loginLimiterFor(store: object, now: () => number): LoginLimiter {
  let limiter = shared.get(store);
  if (!limiter) shared.set(store, (limiter = new LoginLimiter(now)));
  return limiter;
}
