import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateStore } from '../../src/store/index.js';
import { Intake, isV2Event } from '../../src/intake/intake.js';
import { HandlerPipeline } from '../../src/handling/index.js';
import { listenClientSocket } from '../../src/client/socket.js';
import { systemClock } from '../../src/schedule/clock.js';
import { RemoteSpawner } from '../../src/execute/remote-spawner.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { tcpCollector } from '../helpers/net.js';
import { drive } from './socket-drive.js';

/** Sends `count` failing results (each one an event to handle) in arrays of 100 over 8 connections; returns results/s. */
async function intakeRun(port: number, count: number, handler: string | null, tag: string): Promise<number> {
  const arrays = Array.from({ length: count / 100 }, (_, a) =>
    JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({ name: `${tag}_${i}`, output: `out ${a}`, status: 1 + (a % 2), ...(handler ? { handler } : { handlers: [] }) })),
    ),
  );
  return count / (await drive(port, arrays, 8)).seconds;
}

/** Events/s through one handler while intake runs at full speed, and intake's rate with and without handlers, same run. */
export async function benchHandlers(report: (figure: object) => void): Promise<void> {
  const dir = makeTree({});
  const collector = await tcpCollector();
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, 'bench.db'));
  const spawner = new RemoteSpawner();
  const settings = settingsOf({
    client: { name: 'bench', address: '127.0.0.1', subscriptions: [] },
    handlers: { pipe: { type: 'pipe', command: 'cat > /dev/null' }, tcp: { type: 'tcp', socket: { host: '127.0.0.1', port: collector.port } } },
    checkbridge: { handler_queue_limit: 1_000_000 },
  });
  const intake = new Intake(store, () => settings, systemClock, logger);
  const pipeline = new HandlerPipeline({ settings: () => settings, store, logger, clock: systemClock, spawn: spawner.spawn, deleteClient: async () => false });
  intake.onEvent((processed) => !isV2Event(processed) && processed.handle && pipeline.handle(processed.event));
  const listeners = await listenClientSocket({ bind: '127.0.0.1', port: 0, intake, logger, client: () => ({ name: 'bench' }), clock: systemClock });
  const port = listeners.tcp.port;
  const drained = async (handled: number) => {
    while (pipeline.counters.handled + pipeline.counters.failed < handled) await sleep(5);
  };
  try {
    const baseline = await intakeRun(port, 20_000, null, 'none');
    for (const [handler, count] of [
      ['tcp', 20_000],
      ['pipe', 4_000],
    ] as const) {
      const before = pipeline.counters.handled + pipeline.counters.failed;
      const started = performance.now();
      const rate = await intakeRun(port, count, handler, handler);
      await drained(before + count);
      const seconds = (performance.now() - started) / 1000;
      report({
        bench: `handlers.${handler}`,
        events: count,
        handled_per_s: Math.round(count / seconds),
        intake_results_per_s: Math.round(rate),
        intake_without_handlers_per_s: Math.round(baseline),
        intake_ratio_with_to_without: +(rate / baseline).toFixed(2),
        failed: pipeline.counters.failed,
        ...(handler === 'tcp' ? { tcp_connections_received: collector.received.length } : {}),
      });
    }
  } finally {
    await listeners.close();
    await collector.close();
    await spawner.close();
    store.close();
    removeTree(dir);
  }
}
