import type { CheckDefinition } from '../config/index.js';
import { parseLegacyCron, nextCronInstant } from '../time/index.js';
import { firstInstant, standaloneSplayKey, subscriptionSplayKey } from './splay.js';

/** How a check is timed: wall-clock aligned interval with its splay key, or cron. */
export type Timing =
  { kind: 'interval'; intervalMs: number; key: string } | { kind: 'cron'; schedule: NonNullable<ReturnType<typeof parseLegacyCron>> } | { kind: 'none' };

/** Cron wins over interval; standalone checks splay on `client:check`, subscription checks on the name. */
export function timingOf(check: CheckDefinition, clientName: string): Timing {
  if (check.cron) {
    const schedule = parseLegacyCron(check.cron);
    if (schedule) return schedule.fires ? { kind: 'cron', schedule } : { kind: 'none' }; // legacy-accepted, never fires
  }
  if (typeof check.interval === 'number' && check.interval > 0) {
    const key = check.standalone ? standaloneSplayKey(clientName, check.name) : subscriptionSplayKey(check.name);
    return { kind: 'interval', intervalMs: check.interval * 1000, key };
  }
  return { kind: 'none' };
}

/**
 * The first scheduled instant at or after `from` for an interval (phase t ≡ H mod interval),
 * strictly after `from` for cron (legacy: the next matching minute after now).
 */
export function nextInstant(timing: Timing, from: number): number | null {
  if (timing.kind === 'interval') return firstInstant(timing.key, timing.intervalMs / 1000, from);
  if (timing.kind === 'cron') return nextCronInstant(timing.schedule, from);
  return null;
}

/** Every instant in [from, to) (cron: (from, to)). */
export function instantsBetween(timing: Timing, from: number, to: number, limit = 100_000): number[] {
  const out: number[] = [];
  let next = nextInstant(timing, from);
  while (next !== null && next < to && out.length < limit) {
    out.push(next);
    if (timing.kind === 'interval') next += timing.intervalMs;
    else if (timing.kind === 'cron') next = nextCronInstant(timing.schedule, next);
    else break;
  }
  return out;
}

/** Seconds a proxy fan-out spreads over: the interval, or for cron the time to the next run. */
export function spreadSeconds(timing: Timing, at: number): number {
  if (timing.kind === 'interval') return timing.intervalMs / 1000;
  if (timing.kind === 'cron') return (nextCronInstant(timing.schedule, at) - at) / 1000;
  return 0;
}
