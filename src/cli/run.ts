import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { formatDiagnostic } from '../config/index.js';
import { withSharedStoreOption } from './shared-store.js';
import { withFleetOptions, roleFrom } from './fleet.js';
import { hideDaemonSecrets } from './daemon-secrets.js';
import { BRIDGE_API_KEY, STORE_DSN } from './secret-options.js';
import { withSourceOptions, sourcesFrom, loadOrRefuse, sourcesRead, describeSourcesRead } from './sources.js';
import { loggerFrom, settingsLogLevel } from './logging.js';
import { useSandboxLogger } from '../js-sandbox/index.js';
import { Lifecycle } from './lifecycle.js';
import { DaemonSignals } from './signals.js';
import { SettingsHub } from './daemon/settings-hub.js';
import { composeClient } from './daemon/compose-client.js';
import { composeServer } from './daemon/compose-server.js';
import { settleHeapAfterStart } from './settle-heap.js';
import type { RunFlags } from './daemon/run-flags.js';

/** The daemon: server and client roles in one process over the in-process transport; conf.d edits apply live. */
export function registerRun(program: Command): void {
  withSharedStoreOption(withFleetOptions(withSourceOptions(program.command('run'))))
    .description('run the server and client roles: schedule, execute, take results (the daemon)')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--state-dir <dir>', 'where state lives (env CHECKBRIDGE_STATE_DIR)', process.env.CHECKBRIDGE_STATE_DIR ?? 'state')
    .option('--log-level <level>', 'panic, fatal, error, warn, info, debug, trace (env CHECKBRIDGE_LOG_LEVEL; settings log-level, read at start)')
    .option('--no-rehearsal', 'do not rehearse the migration on live events (env CHECKBRIDGE_REHEARSAL=off; see `checkbridge rehearse`)')
    .option('--log-format <format>', 'json or pretty (env CHECKBRIDGE_LOG_FORMAT; default pretty when stderr is a terminal, json otherwise)')
    .option(
      '--tls-cert-file <file>',
      'HTTPS certificate for every HTTP listener (env CHECKBRIDGE_TLS_CERT_FILE; settings api.tls, checkbridge.v2_api.tls, client.http_socket.tls)',
    )
    .option('--tls-key-file <file>', "the certificate's private key (env CHECKBRIDGE_TLS_KEY_FILE)")
    .option('--tls-ca-file <file>', 'CA whose client certificates are required: mutual TLS (env CHECKBRIDGE_TLS_CA_FILE)')
    .option('--api-bind <host>', 'legacy API address (env CHECKBRIDGE_API_BIND; settings api.bind; default 127.0.0.1)')
    .option('--api-port <port>', 'legacy API port, 0 picks one (env CHECKBRIDGE_API_PORT; settings api.port; default 4567)')
    .option('--agent-bind <host>', 'agent HTTP API address (env CHECKBRIDGE_AGENT_BIND; settings client.http_socket.bind)')
    .option('--agent-port <port>', 'agent HTTP API port (env CHECKBRIDGE_AGENT_PORT; settings client.http_socket.port; default 3031)')
    .option('--socket-bind <host>', 'client socket address (env CHECKBRIDGE_SOCKET_BIND; settings client.socket.bind)')
    .option('--v2-bind <host>', 'v2 API address (env CHECKBRIDGE_V2_BIND; settings checkbridge.v2_api.bind; default 127.0.0.1)')
    .option('--v2-port <port>', 'v2 API port, 0 picks one (env CHECKBRIDGE_V2_PORT; settings checkbridge.v2_api.port; default 8080)')
    .option('--agentd-bind <host>', 'Sensu Go agent WebSocket address (env CHECKBRIDGE_AGENTD_BIND; settings checkbridge.agentd.bind; default 127.0.0.1)')
    .option('--agentd-port <port>', 'Sensu Go agent WebSocket port, 0 picks one (env CHECKBRIDGE_AGENTD_PORT; settings checkbridge.agentd.port; default 8081)')
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
      const sources = sourcesFrom(flags, positional);
      const initial = loadOrRefuse(sources);
      if (!initial) return;
      const settings = initial.settings;
      const { logger, level } = loggerFrom(flags.logLevel, settingsLogLevel(settings.raw), flags.logFormat);
      const signals = new DaemonSignals(logger, level);
      const read = sourcesRead(sources, initial.files);
      logger.info(read, describeSourcesRead(read));
      logger.debug({ files: initial.files.map((f) => resolve(f.path)) }, 'configuration files read');
      for (const warning of secretWarnings) logger.warn(warning);
      for (const notice of initial.notices) logger.warn({ diagnostic: formatDiagnostic(notice) }, 'configuration does not mean what it says');
      // Filter expressions run in a WebAssembly sandbox on its own thread, started by the first evaluation.
      useSandboxLogger(logger.child({ component: 'filters' }));
      const stateDir = resolve(flags.stateDir ?? 'state');
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      // Checks and handlers find the state directory here (the example handler logs there, not in a shared /tmp).
      process.env.CHECKBRIDGE_STATE_DIR = stateDir;
      const lifecycle = new Lifecycle(logger);
      const hub = new SettingsHub(settings);
      const base = { role, flags, sources, initial, hub, lifecycle, stateDir, logger };
      // A client alone is its own, smaller list: no store, no APIs.
      const daemon = role === 'client' ? await composeClient(base) : await composeServer(base);
      hub.apply(settings);
      await lifecycle.start(daemon.services);
      const early = signals.act((signal) => void lifecycle.stop(signal), daemon.reload);
      logger.info({ role, ...daemon.summary() }, 'checkbridge running');
      settleHeapAfterStart(logger);
      if (early) await lifecycle.stop(early);
    });
}
