// v2 CheckConfig scheduling beside the legacy scheduler, in the same run: 10,000 checks over 1,000 simulated
// subscribers (100 subscriptions of 10), every check on a 10 s interval, each scheduler alone in its own window; and
// the floor: the same 10,000 timers on the same engine firing nothing, how late this loaded machine runs timers at all.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StateStore } from '../../src/store/index.js';
import { CheckRequestPublisher } from '../../src/scheduling/check-request-publisher.js';
import { CheckRequestTargets, type TargetKind } from '../../src/scheduling/check-request-targets.js';
import { V2CheckScheduler } from '../../src/scheduling/v2-check-scheduler.js';
import { timingOfConfig } from '../../src/scheduling/v2-check-config.js';
import { systemClock, type Clock } from '../../src/schedule/clock.js';
import { Scheduler } from '../../src/schedule/index.js';
import type { Transport } from '../../src/transport/index.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { nodeStartMs } from './load/latency.js';
import { postgresMissing, startPostgres } from '../servers/postgres.js';

const CHECKS = 10_000;
const SUBSCRIPTIONS = 100;
const PER_SUBSCRIPTION = 10;
const INTERVAL_S = 10;
const WINDOW_MS = 15_000;
// After arming, before the window: timers that came due while 10,000 were armed fire late once, not in steady state.
const SETTLE_MS = 2_000;

const p = (sorted: number[], q: number) => (sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3) : null);
const nowPrecise = () => performance.timeOrigin + performance.now();

/** The system clock, recording how late each timer fires after its instant (ms). */
function latenessClock(lateness: number[]): Clock {
  return { now: systemClock.now, at: (at, fn) => systemClock.at(at, () => (lateness.push(nowPrecise() - at), fn())) };
}

/** Runs for one window from now; CPU (user + system) over the requests published in it, and the event loop's busy share. */
async function measure(
  name: string,
  start: () => void,
  stop: () => void,
  requests: () => number,
  lateness: number[],
  report: (figure: object) => void,
  extra: object = {},
) {
  start();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  lateness.length = 0;
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const before = requests();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  stop();
  const used = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(loop).utilization;
  const sent = requests() - before;
  const sorted = lateness.sort((a, b) => a - b);
  const cpuUs = used.user + used.system;
  report({
    bench: name,
    checks: CHECKS,
    subscribers: SUBSCRIPTIONS * PER_SUBSCRIPTION,
    interval_s: INTERVAL_S,
    window_s: WINDOW_MS / 1000,
    requests: sent,
    lateness_p50_ms: p(sorted, 0.5),
    lateness_p99_ms: p(sorted, 0.99),
    lateness_max_ms: p(sorted, 1),
    cpu_us_per_request: sent ? +(cpuUs / sent).toFixed(2) : null,
    event_loop_busy: +busy.toFixed(3),
    ...extra,
  });
  return sent ? cpuUs / sent : 0;
}

/** The v2 scheduler over `store`'s CheckConfigs (written here) for one window; CPU per request and deliveries. */
async function measureV2(name: string, store: StateStore, report: (figure: object) => void): Promise<{ cpu: number; delivered: number }> {
  const subscription = (i: number) => `sub-${i % SUBSCRIPTIONS}`;
  store.transaction(() => {
    for (let i = 0; i < CHECKS; i++) {
      store.resources.putResource('CheckConfig', 'default', `check_${i}`, {
        metadata: { name: `check_${i}`, namespace: 'default' },
        command: `check-thing --n ${i}`,
        interval: INTERVAL_S,
        publish: true,
        subscriptions: [subscription(i)],
        handlers: ['default'],
        round_robin: i % 10 === 0,
      });
    }
  });
  let sent = 0;
  let delivered = 0;
  const members = Array.from({ length: SUBSCRIPTIONS }, (_, s) => Array.from({ length: PER_SUBSCRIPTION }, (_, m) => `agent-${s}-${m}`));
  const simulated: TargetKind = {
    kind: 'simulated',
    members: (_ns, sub) => members[Number(sub.slice(4))] ?? [],
    broadcast: (_ns, sub, request) => {
      sent++;
      delivered += (members[Number(sub.slice(4))] ?? []).length;
      if (request.issued <= 0) throw new Error('a request without issued');
    },
    send: () => void (sent++, delivered++),
  };
  const targets = new CheckRequestTargets();
  targets.register(simulated);
  const lateness: number[] = [];
  const v2 = new V2CheckScheduler({ clock: latenessClock(lateness), resources: store.resources, targets, logger: createLogger('silent') });
  const syncStart = performance.now();
  v2.sync();
  const syncMs = performance.now() - syncStart;
  const cpu = await measure(
    name,
    () => v2.start(),
    () => v2.stop(),
    () => sent,
    lateness,
    report,
    { round_robin_share: 0.1, full_sync_ms: +syncMs.toFixed(1) },
  );
  return { cpu, delivered };
}

export async function benchV2Schedule(report: (figure: object) => void): Promise<void> {
  const dir = makeTree({});
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, 'bench.db'));
  try {
    const nodeBefore = nodeStartMs();
    const subscription = (i: number) => `sub-${i % SUBSCRIPTIONS}`;
    // The floor: the engine's timers alone, phased as the v2 checks are, each fire counted and nothing else done.
    let fired = 0;
    const floorLateness: number[] = [];
    const floor = new Scheduler(latenessClock(floorLateness), () => void fired++);
    for (let i = 0; i < CHECKS; i++) floor.set(`check_${i}`, timingOfConfig('default', { metadata: { name: `check_${i}` }, interval: INTERVAL_S }));
    await measure(
      'v2-schedule.timers',
      () => undefined,
      () => floor.stop(),
      () => fired,
      floorLateness,
      report,
    );
    // The legacy scheduler: its transport publishes once per subscription (the broker fans out).
    let legacySent = 0;
    const transport = { publish: () => void legacySent++, subscribe: () => () => undefined, close: async () => undefined } as unknown as Transport;
    const checks = Object.fromEntries(
      Array.from({ length: CHECKS }, (_, i) => [
        `check_${i}`,
        { command: `check-thing --n ${i}`, interval: INTERVAL_S, subscribers: [subscription(i)], handlers: ['default'] },
      ]),
    );
    const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] }, checks });
    const legacyLateness: number[] = [];
    const legacy = new CheckRequestPublisher({ clock: latenessClock(legacyLateness), transport, registry: { all: () => [] }, logger });
    // Each scheduler arms its timers before its window: the window holds the requests alone.
    const applyStart = performance.now();
    legacy.apply(settings);
    const applyMs = performance.now() - applyStart;
    const legacyCpu = await measure(
      'v2-schedule.legacy',
      () => undefined,
      () => legacy.stop(),
      () => legacySent,
      legacyLateness,
      report,
      { full_apply_ms: +applyMs.toFixed(1) },
    );

    // v2: the same checks as stored CheckConfigs; 1,000 simulated subscribers, each delivery counted.
    const v2 = await measureV2('v2-schedule.v2', store, report);
    // The same over a shared store: the elected server reads the shared generation (one PostgreSQL round trip) per request.
    const pgMissing = postgresMissing();
    if (pgMissing) report({ bench: 'v2-schedule.v2-postgres', skipped: pgMissing });
    else {
      const server = await startPostgres();
      const shared = StateStore.openPostgres(server.url());
      try {
        await measureV2('v2-schedule.v2-postgres', shared, report);
      } finally {
        shared.close();
        server.stop();
      }
    }
    report({
      bench: 'v2-schedule.ratio',
      cpu_per_request_v2_over_legacy: legacyCpu ? +(v2.cpu / legacyCpu).toFixed(2) : null,
      target_ratio: 1.5,
      target_v2_lateness_p99_ms: 5,
      v2_deliveries_to_simulated_subscribers: v2.delivered,
      node_e0_ms_before: nodeBefore,
      node_e0_ms_after: nodeStartMs(),
    });
  } finally {
    store.close();
    removeTree(dir);
  }
}
