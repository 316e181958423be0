import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadSettings, formatDiagnostic, watchSettings, type Settings } from '../config/index.js';
import { systemClock } from '../schedule/clock.js';
import { isWire, transportInfo } from '../transport/index.js';
import { withSharedStoreOption, sharedStoreDsn, type SharedStoreFlags } from './shared-store.js';
import { leadershipFor } from '../cluster/index.js';
import { withFleetOptions, roleFrom, transportNameFrom, openTransport, wireClient, type FleetFlags } from './fleet.js';
import { runClient } from './run-client.js';
import { consumeFleet } from '../server/wire-intake.js';
import { WireResults } from '../client/wire-results.js';
import { Limiter } from '../execute/limiter.js';
import type { spawnCommand } from '../execute/spawn.js';
import { RemoteSpawner } from '../execute/remote-spawner.js';
import { join } from 'node:path';
import { openStateStore } from './state-store.js';
import { StoreIntake, isV2Event } from '../server/store-intake.js';
import { VERSION } from '../server/processor.js';
import { receiveKeepalive, monitorKeepalives, monitorTtl } from '../server/keepalives.js';
import { listenClientSocket } from '../client/socket.js';
import { buildLegacyApi } from '../api/legacy/server.js';
import { buildHttpSocket } from '../client/http-socket.js';
import { redact, deepMerge } from '../config/index.js';
import { listenerFrom, startHttpListener, type ListenerFlags } from './listeners.js';
import { ServerRole } from '../server/server-role.js';
import { HandlerPipeline } from '../server/handling/index.js';
import { removeClient } from '../server/client-removal.js';
import { legacyToV2Writer } from '../v2/legacy-sink.js';
import { startEventStores } from '../store/postgres/start.js';
import { bridgeConfigOf } from '../bridge/config.js';
import { BridgeSender } from '../bridge/sender.js';
import { bridgeSummary, prometheusText } from '../bridge/metrics.js';
import { runPipelines } from '../v2/pipelines.js';
import { buildV2Api } from '../api/v2/server.js';
import { atEntityLimit, entityLimitMessage, entityLimitOf } from '../server/entity-limit.js';
import { TokenIssuer, newSigningKey } from '../auth/tokens.js';
import { ensureAdmin } from '../auth/bootstrap.js';
import { ClientRole } from '../client/client-role.js';
import { cycleLogLevelOnSigusr1 } from './log-level-signal.js';
import { hideDaemonSecrets } from './daemon-secrets.js';
import { BRIDGE_API_KEY, STORE_DSN, resolveSecret } from './secret-options.js';
import { daemonEnvironment } from '../config/start-environment.js';
import { exitCodeOf, CheckbridgeError } from '../errors.js';
import { withSourceOptions, sourcesFrom, loadOrRefuse, type SourceFlags } from './sources.js';
import { LoadedTempfile } from '../config/loaded-tempfile.js';
import { loggerFrom, settingsLogLevel } from './logging.js';
import { listenerHttps, type TlsFlags } from './tls-options.js';
import { warnIfInsecure } from './insecure-listener.js';
import { daemonAssets } from '../assets/index.js';
import { SecretsResolver } from '../secrets/resolver.js';
import { outageResult } from '../secrets/outage.js';
import { loadExpressionSandbox } from '../sandbox/expressions.js';

interface RunFlags extends SourceFlags, ListenerFlags, TlsFlags, FleetFlags, SharedStoreFlags {
  logFormat?: string;
  bridgeUrl?: string;
  bridgeApiKey?: string;
  bridgeApiKeyFile?: string;
  stateDir?: string;
  logLevel?: string;
}

// Checks and handlers get this long to finish at stop before their process groups are stopped.
const STOP_GRACE_MS = 10_000;
// After the grace: how long stopped work gets to settle, and the stopped daemon to exit.
const SETTLE_MS = 3000;

/** Whether `work` settled within `ms` (the timer never outlives the answer). */
function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

function spawnLimit(settings: Settings): number {
  return (settings.raw.sensu as { spawn?: { limit?: number } } | undefined)?.spawn?.limit ?? 12;
}

/** The daemon: server and client roles in one process over the in-process transport; conf.d edits apply live. */
export function registerRun(program: Command): void {
  withSharedStoreOption(withFleetOptions(withSourceOptions(program.command('run'))))
    .description('run the server and client roles: schedule, execute, take results (the daemon)')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--state-dir <dir>', 'where state lives (env CHECKBRIDGE_STATE_DIR)', process.env.CHECKBRIDGE_STATE_DIR ?? 'state')
    .option('--log-level <level>', 'panic, fatal, error, warn, info, debug, trace (env CHECKBRIDGE_LOG_LEVEL; settings log-level, read at start)')
    .option('--log-format <format>', 'json or pretty (env CHECKBRIDGE_LOG_FORMAT; default pretty when stderr is a terminal, json otherwise)')
    .option('--tls-cert-file <file>', 'HTTPS certificate for every HTTP listener (env CHECKBRIDGE_TLS_CERT_FILE; settings api.tls, checkbridge.v2_api.tls, client.http_socket.tls)')
    .option('--tls-key-file <file>', 'the certificate\'s private key (env CHECKBRIDGE_TLS_KEY_FILE)')
    .option('--tls-ca-file <file>', 'CA whose client certificates are required: mutual TLS (env CHECKBRIDGE_TLS_CA_FILE)')
    .option('--api-bind <host>', 'legacy API address (env CHECKBRIDGE_API_BIND; settings api.bind; default 127.0.0.1)')
    .option('--api-port <port>', 'legacy API port, 0 picks one (env CHECKBRIDGE_API_PORT; settings api.port; default 4567)')
    .option('--agent-bind <host>', 'agent HTTP API address (env CHECKBRIDGE_AGENT_BIND; settings client.http_socket.bind)')
    .option('--agent-port <port>', 'agent HTTP API port (env CHECKBRIDGE_AGENT_PORT; settings client.http_socket.port; default 3031)')
    .option('--socket-bind <host>', 'client socket address (env CHECKBRIDGE_SOCKET_BIND; settings client.socket.bind)')
    .option('--v2-bind <host>', 'v2 API address (env CHECKBRIDGE_V2_BIND; settings checkbridge.v2_api.bind; default 127.0.0.1)')
    .option('--v2-port <port>', 'v2 API port, 0 picks one (env CHECKBRIDGE_V2_PORT; settings checkbridge.v2_api.port; default 8080)')
    .option('--bridge-url <url>', 'send every event to this v2 backend (env CHECKBRIDGE_BRIDGE_URL; settings bridge.url)')
    .option('--bridge-api-key <key>', 'the backend API key, better given by --bridge-api-key-file (env CHECKBRIDGE_BRIDGE_API_KEY; settings bridge.api_key)')
    .option('--bridge-api-key-file <file>', 'read the backend API key from this file, kept off the command line (env CHECKBRIDGE_BRIDGE_API_KEY_FILE)')
    .option('--socket-port <port>', 'client socket TCP+UDP port (env CHECKBRIDGE_SOCKET_PORT; settings client.socket.port; default 3030)')
    .action(async (positional: string[], flags: RunFlags) => {
      // First, before anything forks or reads them: the credentials leave process.env and what /proc shows of us.
      const secretWarnings = hideDaemonSecrets([
        { option: STORE_DSN, value: flags.storeDsn },
        { option: BRIDGE_API_KEY, value: flags.bridgeApiKey },
      ]);
      const role = roleFrom(flags);
      // A client alone is its own, smaller composition: no store, no APIs (src/cli/run-client.ts).
      if (role === 'client') return runClient(positional, flags, secretWarnings);
      const sources = sourcesFrom(flags, positional);
      const initial = loadOrRefuse(sources);
      if (!initial) return;
      const settings = initial.settings;
      const { logger, level } = loggerFrom(flags.logLevel, settingsLogLevel(settings.raw), flags.logFormat);
      cycleLogLevelOnSigusr1(logger, level);
      for (const warning of secretWarnings) logger.warn(warning);
      for (const notice of initial.notices) logger.warn({ diagnostic: formatDiagnostic(notice) }, 'configuration does not mean what it says');
      // Filter expressions run in a WebAssembly sandbox on its own thread: it loads while the store opens (issue 27).
      const sandboxLoaded = loadExpressionSandbox(logger.child({ component: 'filters' }));
      // Servers sharing a store elect one to do the once-per-cluster work (reference §10.13); one alone always does it.
      // Read before anything opens: a malformed DSN refuses the start.
      const dsn = sharedStoreDsn(flags, settings);
      // Read now too: an unreadable key file refuses the start before anything opens.
      const bridgeApiKey = resolveSecret(BRIDGE_API_KEY, { value: flags.bridgeApiKey, file: flags.bridgeApiKeyFile }, daemonEnvironment());
      const leadership = leadershipFor(dsn, { name: String(settings.client.name), pid: process.pid }, logger);
      const stateDir = resolve(flags.stateDir ?? 'state');
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      const loadedTempfile = new LoadedTempfile(stateDir); // SENSU_LOADED_TEMPFILE for every child (reference §1.2)

      const limiter = new Limiter(spawnLimit(settings));
      // Checks and handlers fork from one helper process: in a daemon grown to ~380 MB, forking in-process managed
      // 44 executions/s against 394/s through the helper (test/bench/execute), and it stalled intake.
      const spawner = new RemoteSpawner();
      const run = (command: string, options: Parameters<typeof spawnCommand>[1]) => limiter.run(() => spawner.spawn(command, options));
      const store = openStateStore(
        dsn !== null ? { dsn } : { path: join(stateDir, 'checkbridge.db'), quotaBytes: (settings.raw.checkbridge as { store_quota?: number } | undefined)?.store_quota },
        logger,
      );
      let current = settings;
      const transport = openTransport(transportNameFrom(role, flags, settings), settings, Date.now(), logger);
      const intake = new StoreIntake(store, () => current, systemClock, logger);
      const wire = isWire(transport) ? transport : null;
      const runsClient = role === 'both';
      // Over a broker the client role's results and keepalives travel through it (reference §2.5).
      const fleetClient = wire && runsClient ? wireClient(wire, () => current, logger) : null;
      const clientIntake = fleetClient?.results ?? intake;
      // The server's own results — the monitors' and the legacy API's POST /results — travel through the broker too (reference §2.5).
      const serverResults = wire ? new WireResults(wire, logger) : intake;
      const assets = daemonAssets(stateDir, () => current, logger);
      // Only the server resolves secrets; an outage of a provider is an event of this daemon's own entity.
      const secrets = new SecretsResolver({ store: store.v2, logger, onOutage: (change) => void intake.submit(outageResult(String(current.client.name), change, Date.now())) });
      const handlers = new HandlerPipeline({
        settings: () => current,
        store,
        logger,
        now: Date.now,
        spawn: spawner.spawn,
        secrets: secrets.in(() => namespace()),
        deleteClient: (name) => removeClient(store, intake, name, Date.now()),
        assets: assets.legacy,
        publish: wire ? (type, pipe, body, options) => wire.send(type, pipe, body, options) : undefined,
      });
      const namespace = () => String((current.raw.checkbridge as { namespace?: string } | undefined)?.namespace ?? 'default');
      const bridge = bridgeConfigOf(settings.raw.bridge, { bridgeUrl: flags.bridgeUrl, bridgeApiKey }, daemonEnvironment());
      // v2 events go to the embedded store or PostgreSQL (PostgresConfig): written before a result is answered.
      const events = await startEventStores(store, intake, logger);
      await sandboxLoaded;
      intake.withinTransaction(legacyToV2Writer(store, namespace, bridge ? bridge.namespace : null, events));
      const sender = bridge ? new BridgeSender(store.outbox, bridge, logger) : null;
      const bridgeView = sender ? { status: () => sender.status, outbox: store.outbox } : null;
      // Where every event leaves the intake: legacy handler sets and v2 pipelines, both in the handlers' queues.
      intake.onEvent((emitted) => {
        if (isV2Event(emitted)) {
          const { namespace: ns, event } = emitted;
          return void runPipelines(store.v2, ns, event, handlers, logger, assets.v2(store.v2, ns), secrets.in(ns)).catch((error) => logger.error({ err: error }, 'pipeline failed'));
        }
        logger.debug({ client: emitted.event.client.name, check: emitted.event.check.name, action: emitted.event.action, occurrences: emitted.event.occurrences }, 'event processed');
        if (emitted.handle) handlers.handle(emitted.event);
        sender?.kick();
      });
      let bridgeTicks = 0;
      const bridgeTimer = setInterval(() => {
        sender?.kick();
        // The outbox figures, once a minute while a bridge is configured.
        if (bridgeView && ++bridgeTicks % 60 === 0) logger.info({ component: 'bridge', ...bridgeSummary(bridgeView, Date.now()) }, 'bridge outbox');
      }, 1000);
      const registry = { all: () => store.listClients().filter((c) => !c.invalidated) };
      const server = new ServerRole({ clock: systemClock, transport, registry, logger, scheduling: dsn === null, leading: () => leadership.isLeader() });
      // Over a broker, nothing is scheduled until it is connected (legacy bootstraps then, reference §1).
      if (wire) server.pause('broker away');
      const client = new ClientRole({ clock: systemClock, transport, intake: clientIntake, run, logger, assets: assets.legacy, secrets: secrets.in(() => namespace()) });
      // The client role's keepalive: its settings redacted, with version and timestamp (reference §10.9).
      const register = (s: Settings) => {
        if (fleetClient) return fleetClient.keepalive();
        const local = s.client as Record<string, unknown>;
        const payload = { ...(redact(local, (local.redact as string[] | undefined) ?? undefined) as Record<string, unknown>), version: VERSION, timestamp: Math.floor(Date.now() / 1000) };
        const outcome = receiveKeepalive(store, s, payload, Date.now());
        if (!outcome.accepted) logger.warn({ client: local.name }, outcome.reason);
        else if (outcome.registration) {
          logger.info({ client: local.name, event: outcome.registration.id }, 'new client registration');
          handlers.handle(outcome.registration);
        }
      };
      const apply = (s: Settings) => {
        loadedTempfile.write(s.files);
        current = s;
        limiter.setLimit(spawnLimit(s));
        handlers.checkSettings(s);
        if (runsClient) {
          register(s);
          client.apply(s);
        }
        server.apply(s);
      };
      apply(settings);
      const tuning = (settings.raw.checkbridge ?? {}) as { keepalive_interval?: number; monitor_interval?: number };
      let monitors: NodeJS.Timeout | undefined;
      let stopping = false;
      // The first pass one interval after start-up or a reconnection, when clients have had the time to send keepalives.
      const startMonitors = () => {
        clearInterval(monitors);
        monitors = setInterval(() => {
          if ((wire && !wire.connected()) || !leadership.isLeader()) return;
          void monitorKeepalives(store, current, serverResults, Date.now());
          void monitorTtl(store, serverResults, Date.now());
        }, (tuning.monitor_interval ?? 30) * 1000);
      };
      if (wire) {
        // Legacy pause and resume (reference §2.7): while the broker is away, no check requests and no monitor results.
        wire.onDisconnected(() => {
          server.pause('broker away');
          logger.warn('transport is not connected: check requests and monitors paused until it is');
        });
        wire.onConnected(() => {
          if (stopping) return;
          server.resume('broker away');
          if (monitors) startMonitors();
        });
        consumeFleet({ transport: wire, store, settings: () => current, intake, logger, now: Date.now, onRegistration: (event) => handlers.handle(event) });
        wire.start();
      }

      // Handlers go in first and stay: a stop signal during start-up is remembered and honoured once
      // start-up completes (removing a listener could drop a signal already received but not dispatched).
      let early: string | null = null;
      let stopNow: ((signal: string) => Promise<void>) | null = null;
      let reloadNow: (() => void) | null = null;
      const onStop = (signal: string) => () => (stopNow ? void stopNow(signal) : void (early ??= signal));
      process.on('SIGTERM', onStop('SIGTERM'));
      process.on('SIGINT', onStop('SIGINT'));
      process.on('SIGHUP', () => reloadNow?.());

      // Holds the event loop open from here until stop ends, whatever is listening.
      const alive = setInterval(() => undefined, 1 << 30);
      // What start-up opened so far; stop closes whatever is there, so a failed start-up leaves nothing behind.
      let socket: Awaited<ReturnType<typeof listenClientSocket>> | null = null;
      let api: ReturnType<typeof buildLegacyApi> | null = null;
      let v2Api: ReturnType<typeof buildV2Api> | null = null;
      let httpSocket: ReturnType<typeof buildHttpSocket> | null = null;
      let watcher: ReturnType<typeof watchSettings> | null = null;
      let keepalives: NodeJS.Timeout | undefined;
      // The once-per-cluster work: subscription-check scheduling, the keepalive and TTL monitors, bridge sending.
      leadership.start((leader) => {
        if (stopping) return;
        if (!leader) {
          // Lost: nothing more of it runs here, before anyone else could be elected.
          server.pause('not elected');
          clearInterval(monitors);
          monitors = undefined;
          sender?.pause();
          return;
        }
        server.resume('not elected');
        sender?.start();
        startMonitors();
      });
      // Reference §10.11: a client that asks to deregister says so once, on the way out.
      const deregister = (s: Settings) => {
        const now = Math.floor(Date.now() / 1000);
        const check = deepMerge({ handler: 'deregistration', status: 1 }, s.client.deregistration ?? {}) as Record<string, unknown>;
        return clientIntake.submit({ client: String(s.client.name), check: { ...check, name: 'deregistration', output: 'client initiated deregistration', status: Number(check.status) || 1, issued: now, executed: now } });
      };
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'stopping');
        // First, so that no reload restarts what is being stopped.
        await watcher?.close();
        server.stop();
        // The broker stops delivering to us at once, so another server takes over what we would have held (reference §2.4).
        if (wire) await within(wire.stopConsuming(SETTLE_MS), SETTLE_MS + 1000);
        if (runsClient && current.client.deregister === true && signal !== 'start-up failure') await deregister(current).catch((error) => logger.error({ err: error }, 'deregistration failed'));
        clearInterval(keepalives);
        clearInterval(monitors);
        await socket?.close();
        await api?.close();
        await v2Api?.close();
        await httpSocket?.close();
        // One grace for checks and handlers together; what still runs after it has its process group stopped.
        const deadline = Date.now() + STOP_GRACE_MS;
        const checksDone = await within(client.stop(), deadline - Date.now());
        const handlersDone = await handlers.stop(deadline - Date.now());
        if (!checksDone || !handlersDone) logger.warn({ checks: !checksDone, handlers: handlers.pending }, 'still running at stop: their processes are stopped');
        // No command runs and no helper starts after this.
        await spawner.close();
        await within(Promise.all([client.stop(), handlers.drain(SETTLE_MS)]), SETTLE_MS);
        clearInterval(bridgeTimer);
        await sender?.stop();
        // Last of the once-per-cluster work stopped: the lock goes, and another server may take over at once.
        await leadership.close();
        await transport.close();
        // A result that arrived in the last turns (a UDP datagram) is committed before the store closes.
        await intake.flushed();
        await events.close();
        secrets.close();
        store.close();
        clearInterval(alive);
        loadedTempfile.remove();
        logger.info('stopped');
        // A handler's socket can outlive its timeout budget; the stop stays bounded regardless.
        setTimeout(() => {
          logger.warn('still busy after stopping: exiting');
          process.exit();
        }, SETTLE_MS).unref();
      };

      try {
        const socketConfig = (settings.client.socket ?? {}) as { enabled?: boolean; bind?: string; port?: number };
        socket =
          socketConfig.enabled === false || !runsClient
            ? null
            : await listenClientSocket({
                ...listenerFrom('socket', flags, { bind: socketConfig.bind, port: socketConfig.port }, { bind: '127.0.0.1', port: 3030 }),
                intake: clientIntake,
                logger,
                client: () => ({ name: String(current.client.name), signature: current.client.signature as string | undefined }),
                now: Date.now,
                maxMessageBytes: (settings.raw.sensu as { server?: { max_message_size?: number } } | undefined)?.server?.max_message_size,
                bufferLimitBytes: (settings.raw.checkbridge as { socket_buffer_limit?: number } | undefined)?.socket_buffer_limit,
                messageDeadlineMs: ((settings.raw.checkbridge as { socket_message_timeout?: number } | undefined)?.socket_message_timeout ?? 10) * 1000,
              });
        if (socket) warnIfInsecure(logger, 'client socket', socket.tcp, false);
        const apiConfig = (settings.raw.api ?? {}) as { bind?: string; port?: number; tls?: unknown };
        const apiHttps = listenerHttps('legacy API', 'api.tls', apiConfig.tls, flags);
        api = buildLegacyApi({ https: apiHttps, store, settings: () => current, intake, results: serverResults, logger, now: Date.now, bridge: bridgeView, transport: () => transportInfo(transport), servers: () => leadership.servers(), requestCheck: (name, subs, meta) => server.requestNow(name, subs, meta) });
        const apiListen = listenerFrom('api', flags, apiConfig, { bind: '127.0.0.1', port: 4567 });
        await startHttpListener(api, 'legacy API', apiListen, apiHttps !== null, logger);

        await ensureAdmin(store.v2, daemonEnvironment(), (line) => process.stderr.write(line + '\n'));
        const v2Config = ((settings.raw.checkbridge as { v2_api?: { bind?: string; port?: number; tls?: unknown } } | undefined)?.v2_api ?? {});
        const v2Https = listenerHttps('v2 API', 'checkbridge.v2_api.tls', v2Config.tls, flags);
        v2Api = buildV2Api({
          https: v2Https,
          store,
          events,
          postgres: events,
          entityGate: () => (atEntityLimit(store, entityLimitOf(current)) ? entityLimitMessage(entityLimitOf(current)) : null),
          tokens: new TokenIssuer(store.v2.secret('jwt-hs256', newSigningKey)),
          logger,
          now: Date.now,
          spawn: spawner.spawn,
          annotations: bridgeView ? () => Object.fromEntries(Object.entries(bridgeSummary(bridgeView, Date.now()) ?? {}).map(([k, v]) => [`checkbridge.bridge.${k}`, String(v)])) : undefined,
          metrics: () => prometheusText(bridgeView, Date.now()),
          intake,
          dashboard: { legacy: api, settings: () => current, sources, bridge: bridgeView, onEvent: (listener) => intake.onEvent(listener) },
        });
        const v2Listen = listenerFrom('v2', flags, v2Config, { bind: '127.0.0.1', port: 8080 });
        await startHttpListener(v2Api, 'v2 API', v2Listen, v2Https !== null, logger);

        const httpConfig = (settings.client.http_socket ?? {}) as { enabled?: boolean; bind?: string; port?: number; tls?: unknown };
        const agentHttps = httpConfig.enabled === false || !runsClient ? null : listenerHttps('agent API', 'client.http_socket.tls', httpConfig.tls, flags);
        httpSocket = httpConfig.enabled === false || !runsClient ? null : buildHttpSocket({ https: agentHttps, settings: () => current, intake: clientIntake, now: Date.now, transport: () => transportInfo(transport) });
        if (httpSocket) {
          const listen = listenerFrom('agent', flags, httpConfig, { bind: '127.0.0.1', port: 3031 });
          await startHttpListener(httpSocket, 'agent API', listen, agentHttps !== null, logger);
        }

        watcher = watchSettings({ sources, initial: { ...initial, settings }, logger });
        watcher.onChange((_diff, next) => {
          if (settingsLogLevel(next.raw) !== settingsLogLevel(current.raw)) logger.warn({ 'log-level': settingsLogLevel(next.raw) ?? null }, 'log-level changed in the settings: it applies at restart');
          if (!stopping) apply(next);
        });
        if (runsClient) keepalives = setInterval(() => register(current), (tuning.keepalive_interval ?? 20) * 1000);
        await watcher.ready();
      } catch (error) {
        await stop('start-up failure');
        throw error;
      }
      stopNow = stop;
      const reloader = watcher;
      reloadNow = () => {
        logger.info('SIGHUP: reloading configuration');
        void reloader.reload();
      };
      logger.info(
        { role, transport: wire?.name ?? 'local', files: settings.files.length, checks: Object.keys(settings.checks).length, scheduled: server.scheduledChecks(), standalone: client.standaloneChecks(), subscriptions: client.subscriptions(), stateDir },
        'checkbridge running',
      );
      if (early) await stopNow(early);
    });
}
