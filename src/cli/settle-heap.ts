import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from 'pino';

// Start-up (modules, schemas, routes) grows V8's young generation to 32 MB, which V8's own memory reducer gives back only
// 15-20 s into a quiet daemon. One full collection once start-up's allocation has died down gives it back now; one
// sooner keeps it, as V8 shrinks that space only when the recent allocation rate is low.
const AFTER_START_MS = 8_000;
const RETRY_MS = 4_000;
// What V8 starts the young generation at (two semi-spaces of 1 MB, 0.5 MB each on some builds).
const SMALL_YOUNG_MB = 2;

const youngMb = () => (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / 2 ** 20;

/**
 * `delayMs` after the daemon is running: a full garbage collection, its effect logged; again every 4 s, up to
 * `tries` in all, while the young generation stays large (V8 also judges the recent allocation rate, which a burst of work
 * at that moment raises).
 */
export function settleHeapAfterStart(logger: Logger, delayMs = AFTER_START_MS, tries = 4): void {
  setTimeout(() => {
    // The collector is reachable only from a context made while the flag is set; later contexts (workers') get none.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    const before = { young_mb: +youngMb().toFixed(1), rss_mb: +(process.memoryUsage.rss() / 2 ** 20).toFixed(1) };
    gc();
    const after = { young_mb: +youngMb().toFixed(1), rss_mb: +(process.memoryUsage.rss() / 2 ** 20).toFixed(1) };
    if (after.young_mb > SMALL_YOUNG_MB && tries > 1) return settleHeapAfterStart(logger, RETRY_MS, tries - 1);
    logger.debug({ before, after }, "start-up's memory collected");
  }, delayMs).unref();
}
