import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSettings, formatDiagnostic, watchSettings, deepMerge, type Settings } from '../config/index.js';
import { systemClock } from '../schedule/clock.js';
import { Limiter } from '../execute/limiter.js';
import type { spawnCommand } from '../execute/spawn.js';
import { RemoteSpawner } from '../execute/remote-spawner.js';
import { listenClientSocket } from '../client/socket.js';
import { buildHttpSocket } from '../client/http-socket.js';
import { ClientRole } from '../client/client-role.js';
import { LoadedTempfile } from '../config/loaded-tempfile.js';
import { daemonAssets } from '../assets/index.js';
import { loadExpressionSandbox } from '../sandbox/expressions.js';
import { transportInfo, type WireTransport } from '../transport/index.js';
import { exitCodeOf, CheckbridgeError } from '../errors.js';
import { sourcesFrom, loadOrRefuse, type SourceFlags } from './sources.js';
import { listenerFrom, startHttpListener, type ListenerFlags } from './listeners.js';
import { loggerFrom, settingsLogLevel } from './logging.js';
import { cycleLogLevelOnSigusr1 } from './log-level-signal.js';
import { openTransport, transportNameFrom, wireClient, type FleetFlags } from './fleet.js';

interface ClientFlags extends SourceFlags, ListenerFlags, FleetFlags {
  stateDir?: string;
  logLevel?: string;
  logFormat?: string;
}

// Checks get this long to finish at stop; then the deregistration and the buffered results get their last chance.
const STOP_GRACE_MS = 10_000;

function spawnLimit(settings: Settings): number {
  return (settings.raw.sensu as { spawn?: { limit?: number } } | undefined)?.spawn?.limit ?? 12;
}

/**
 * `run --role client`: a legacy client's duties over a broker — keepalives, subscriptions, standalone checks,
 * the sockets — with no store and no APIs (reference legacy-transport.md §2.5, 1x §4.2-4.4, §11).
 */
export async function runClient(positional: string[], flags: ClientFlags, warnings: readonly string[] = []): Promise<void> {
  const sources = sourcesFrom(flags, positional);
  const initial = loadOrRefuse(sources);
  if (!initial) return;
  const settings = initial.settings;
  // The same log level and format rules as the server role: flag, environment, then the settings' `log-level`.
  const { logger, level } = loggerFrom(flags.logLevel, settingsLogLevel(settings.raw), flags.logFormat);
  cycleLogLevelOnSigusr1(logger, level);
  for (const warning of warnings) logger.warn(warning);
  // Asset filters run in a WebAssembly sandbox on its own thread, loaded once here (issue 27).
  await loadExpressionSandbox(logger.child({ component: 'filters' }));
  let current = settings;
  const stateDir = resolve(flags.stateDir ?? 'state');
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const loadedTempfile = new LoadedTempfile(stateDir);
  const limiter = new Limiter(spawnLimit(settings));
  const spawner = new RemoteSpawner();
  const run = (command: string, options: Parameters<typeof spawnCommand>[1]) => limiter.run(() => spawner.spawn(command, options));
  const assets = daemonAssets(stateDir, () => current, logger);
  const transport = openTransport(transportNameFrom('client', flags, settings), settings, Date.now(), logger) as WireTransport;
  const { results, keepalive } = wireClient(transport, () => current, logger);
  const client = new ClientRole({ clock: systemClock, transport, intake: results, run, logger, assets: assets.legacy });
  const apply = (s: Settings) => {
    loadedTempfile.write(s.files);
    current = s;
    limiter.setLimit(spawnLimit(s));
    client.apply(s);
  };
  apply(settings);
  transport.start();

  const alive = setInterval(() => undefined, 1 << 30);
  const tuning = (settings.raw.checkbridge ?? {}) as { keepalive_interval?: number };
  const keepalives = setInterval(keepalive, (tuning.keepalive_interval ?? 20) * 1000);
  let socket: Awaited<ReturnType<typeof listenClientSocket>> | null = null;
  let httpSocket: ReturnType<typeof buildHttpSocket> | null = null;
  let watcher: ReturnType<typeof watchSettings> | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await watcher?.close();
    clearInterval(keepalives);
    // No more check requests while stopping (legacy unsubscribes on the way out, reference §2.4).
    await Promise.race([transport.stopConsuming(1000), new Promise((r) => setTimeout(r, 2000).unref())]);
    // Reference §10.11: deregistration is a result published on the way out.
    if (current.client.deregister === true && signal !== 'start-up failure') {
      const now = Math.floor(Date.now() / 1000);
      const check = deepMerge({ handler: 'deregistration', status: 1 }, current.client.deregistration ?? {}) as Record<string, unknown>;
      await results.submit({ client: String(current.client.name), check: { ...check, name: 'deregistration', output: 'client initiated deregistration', status: Number(check.status) || 1, issued: now, executed: now } });
    }
    await socket?.close();
    await httpSocket?.close();
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([client.stop(), new Promise((r) => (grace = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(grace);
    await spawner.close();
    // What was published is in the channel's buffer: a moment to write it before the connections close.
    await new Promise((r) => setTimeout(r, 200));
    await transport.close();
    clearInterval(alive);
    loadedTempfile.remove();
    logger.info('stopped');
  };
  let early: string | null = null;
  let stopNow: ((signal: string) => Promise<void>) | null = null;
  const onStop = (signal: string) => () => (stopNow ? void stopNow(signal) : void (early ??= signal));
  process.on('SIGTERM', onStop('SIGTERM'));
  process.on('SIGINT', onStop('SIGINT'));
  process.on('SIGHUP', () => void watcher?.reload());

  try {
    const socketConfig = (settings.client.socket ?? {}) as { enabled?: boolean; bind?: string; port?: number };
    if (socketConfig.enabled !== false) {
      socket = await listenClientSocket({
        ...listenerFrom('socket', flags, { bind: socketConfig.bind, port: socketConfig.port }, { bind: '127.0.0.1', port: 3030 }),
        intake: results,
        logger,
        client: () => ({ name: String(current.client.name), signature: current.client.signature as string | undefined }),
        now: Date.now,
        // Legacy clients have no size limit of their own (reference §6.1); the server's applies on arrival.
        bufferLimitBytes: (settings.raw.checkbridge as { socket_buffer_limit?: number } | undefined)?.socket_buffer_limit,
        messageDeadlineMs: ((settings.raw.checkbridge as { socket_message_timeout?: number } | undefined)?.socket_message_timeout ?? 10) * 1000,
      });
    }
    const httpConfig = (settings.client.http_socket ?? {}) as { enabled?: boolean; bind?: string; port?: number };
    if (httpConfig.enabled !== false) {
      httpSocket = buildHttpSocket({ settings: () => current, intake: results, now: Date.now, transport: () => transportInfo(transport) });
      const listen = listenerFrom('agent', flags, httpConfig, { bind: '127.0.0.1', port: 3031 });
      await startHttpListener(httpSocket, 'agent API', listen, false, logger);
    }
    watcher = watchSettings({ sources, initial: { ...initial, settings }, logger });
    watcher.onChange((_diff, next) => {
      if (!stopping) apply(next);
    });
    await watcher.ready();
  } catch (error) {
    await stop('start-up failure');
    throw error;
  }
  stopNow = stop;
  logger.info({ role: 'client', transport: transport.name, subscriptions: client.subscriptions(), standalone: client.standaloneChecks() }, 'checkbridge running');
  if (early) await stopNow(early);
}
