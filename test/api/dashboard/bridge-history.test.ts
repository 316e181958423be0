import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerBridgeHistory } from '../../../src/api/dashboard/bridge-history.js';
import { ManualClock } from '../../../src/schedule/clock.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import type { BridgeView } from '../../../src/bridge/index.js';

const START_MS = 1_700_000_000_000;
const HISTORY = '/api/checkbridge/v1/bridge/history';

interface Sample {
  at: number;
  depth: number;
  oldest_age_s: number;
}

// A fastify instance with the history alone, over a real outbox; node's interval timer is mocked to step the sampling.
function history(t: TestContext, withBridge = true) {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const store = sqliteStore(t);
  const clock = new ManualClock(START_MS);
  const bridge: BridgeView | null = withBridge ? { status: () => 'delivering', outbox: store.outbox } : null;
  const app = Fastify({ logger: false });
  registerBridgeHistory(app, bridge, clock);
  t.after(() => app.close());
  const read = async () =>
    (await app.inject(HISTORY)).json() as { configured: boolean; status: string | null; stats: Record<string, number> | null; samples: Sample[] };
  // One sampling period passes: the clock and node's timers both.
  const period = (ms = 15_000) => {
    clock.advanceBy(ms);
    t.mock.timers.tick(ms);
  };
  return { store, clock, read, period };
}

test('bridge history without a bridge: not configured, no figures, no samples', async (t) => {
  const { read, period } = history(t, false);
  period();
  assert.deepEqual(await read(), { configured: false, status: null, stats: null, samples: [] });
});

test('bridge history: a sample at start and every 15 s, closed by the figures of the moment', async (t) => {
  const { store, read, period } = history(t);
  store.outbox.add('default', 'web-1', 'disk', '{}', START_MS);
  period();
  store.outbox.add('default', 'web-1', 'cpu', '{}', START_MS + 15_000);
  const now = await read();
  assert.equal(now.configured, true);
  assert.equal(now.status, 'delivering');
  assert.deepEqual(now.stats, { depth: 2, oldest_age_s: 15, delivered: 0, dead_lettered: 0 });
  const at = START_MS / 1000;
  assert.deepEqual(now.samples, [
    { at, depth: 0, oldest_age_s: 0 },
    { at: at + 15, depth: 1, oldest_age_s: 15 },
    { at: at + 15, depth: 2, oldest_age_s: 15 },
  ]);
});

test('bridge history keeps the last hour: 240 samples, oldest dropped first', async (t) => {
  const { read, period } = history(t);
  for (let i = 0; i < 300; i++) period();
  const { samples } = await read();
  assert.equal(samples.length, 241, '240 kept and the figures of now');
  const at = START_MS / 1000;
  assert.equal(samples[0]!.at, at + 61 * 15, 'the first 61 samples (the one at start and 60 more) are gone');
  assert.equal(samples[239]!.at, at + 300 * 15);
});
