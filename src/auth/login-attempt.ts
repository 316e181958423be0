import { setTimeout as sleep } from 'node:timers/promises';
import type { LoginKey, LoginLimiter } from './login-limiter.js';
import { ConnectionGone, PasswordsBusy } from './password-pool.js';

export type LoginOutcome<T> =
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'refused' }
  | { readonly kind: 'limited'; readonly retryAfter: number }
  | { readonly kind: 'busy'; readonly retryAfter: number }
  | { readonly kind: 'gone' };

// A refusal is never answered sooner than this after the attempt began: a guess holds the guesser at least as long as us.
const REFUSAL_FLOOR_MS = 250;

/**
 * One password attempt under the login limits: reserved before any work, `check` run (its password work in the pool,
 * ahead of the queue when `priority`: the name's own side), a refusal answered no sooner than the check took and the
 * floor, then counted. Busy pool and closed connection: not counted.
 */
export async function attemptLogin<T>(limiter: LoginLimiter, key: LoginKey, check: (priority: boolean) => Promise<T | null>): Promise<LoginOutcome<T>> {
  const ticket = limiter.reserve(key);
  if ('retryAfter' in ticket) return { kind: 'limited', retryAfter: ticket.retryAfter };
  const started = limiter.clock.now();
  try {
    const value = await check(ticket.priority);
    if (value !== null) {
      ticket.succeeded();
      return { kind: 'ok', value };
    }
    const rest = REFUSAL_FLOOR_MS - (limiter.clock.now() - started);
    if (rest > 0) await sleep(rest);
    ticket.failed();
    return { kind: 'refused' };
  } catch (error) {
    ticket.release();
    if (error instanceof PasswordsBusy) return { kind: 'busy', retryAfter: error.retryAfterS };
    if (error instanceof ConnectionGone) return { kind: 'gone' };
    throw error;
  }
}
