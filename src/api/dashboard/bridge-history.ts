import type { FastifyInstance } from 'fastify';
import type { BridgeView } from '../../bridge/index.js';
import { PREFIX } from './deps.js';
import type { ReadClock } from '../../schedule/index.js';

const EVERY_MS = 15_000;
const KEEP = 240; // one hour of samples

/** Outbox depth and oldest age sampled every 15 s, the last hour kept in memory for the Bridge page's chart. */
export function registerBridgeHistory(app: FastifyInstance, bridge: BridgeView | null, clock: ReadClock): void {
  const samples: { at: number; depth: number; oldest_age_s: number }[] = [];
  const sample = () => {
    if (!bridge) return;
    const stats = bridge.outbox.stats(clock.now());
    samples.push({ at: Math.floor(clock.now() / 1000), depth: stats.depth, oldest_age_s: stats.oldest_age_s });
    if (samples.length > KEEP) samples.splice(0, samples.length - KEEP);
  };
  sample();
  const timer = setInterval(sample, EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  app.get(`${PREFIX}/bridge/history`, () => {
    const stats = bridge ? bridge.outbox.stats(clock.now()) : null;
    // The figures of this moment close the series, so the chart ends now.
    const latest = stats ? [{ at: Math.floor(clock.now() / 1000), depth: stats.depth, oldest_age_s: stats.oldest_age_s }] : [];
    return { configured: bridge !== null, status: bridge?.status() ?? null, stats, samples: [...samples, ...latest] };
  });
}
