import { type Settings, socketLimitsOf, keepaliveIntervalOf } from '../../config/index.js';
import type { ResultIntake } from '../../execute/index.js';
import { systemClock } from '../../schedule/index.js';
import { transportInfo, type Transport } from '../../transport/index.js';
import { ClientChecks, ClientRole, KeepaliveSession } from '../../client/index.js';
import { listenClientSocket, localClientOf } from '../../client/index.js';
import { buildHttpSocket } from '../../client/index.js';
import type { SecretsLookup } from '../../secrets/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import { listenerFrom, listenFailure, startHttpListener } from '../listeners.js';
import { listenerHttps } from '../tls-options.js';
import { warnIfInsecure } from '../insecure-listener.js';
import type { Execution } from './execution.js';
import type { RunFlags } from './run-flags.js';
import type { SettingsHub } from './settings-hub.js';

export interface ClientParts {
  readonly hub: SettingsHub;
  readonly flags: RunFlags;
  readonly transport: Transport;
  readonly execution: Execution;
  /** Where results go: the server's intake in one process, the broker otherwise. */
  readonly intake: ResultIntake;
  /** Sends this client's keepalive. */
  readonly keepalive: (settings: Settings) => void;
  /** Only a client in the server's process resolves its checks' secrets. */
  readonly secrets?: SecretsLookup;
  /** The server's size limit on socket messages, when the server is in this process (a legacy client has none). */
  readonly maxMessageBytes?: number | undefined;
  /** Whether start-up completed: a start-up failure does not deregister. */
  readonly isRunning: () => boolean;
}

/**
 * The client role's services, whatever the process also runs: checks (subscriptions, standalone), the client
 * socket (:3030), the agent API (:3031) and keepalives with deregistration.
 */
export function buildClient(parts: ClientParts, logger: Logger) {
  const { hub, flags, transport, execution, intake } = parts;
  const settings = hub.current();
  const client = new ClientRole({
    clock: systemClock,
    transport,
    intake,
    run: execution.processes.run,
    logger,
    assets: execution.assets.legacy,
    secrets: parts.secrets,
  });
  hub.onApply((s) => {
    parts.keepalive(s);
    client.apply(s);
  });
  execution.processes.settleAtStop(() => client.stop());
  const checks = new ClientChecks(client, logger);
  let socket: Awaited<ReturnType<typeof listenClientSocket>> | null = null;
  const socketService: Service = {
    name: 'client socket',
    async start() {
      const socketConfig = (settings.client.socket ?? {}) as { enabled?: boolean; bind?: string; port?: number };
      if (socketConfig.enabled === false) return;
      socket = await listenClientSocket({
        ...listenerFrom('socket', flags, { bind: socketConfig.bind, port: socketConfig.port }, { bind: '127.0.0.1', port: 3030 }),
        intake,
        logger,
        client: () => localClientOf(hub.current()),
        clock: systemClock,
        maxMessageBytes: parts.maxMessageBytes,
        bufferLimitBytes: socketLimitsOf(settings).bufferLimitBytes,
        messageDeadlineMs: socketLimitsOf(settings).messageDeadlineMs,
      }).catch((error: unknown) => {
        throw listenFailure('socket', error);
      });
      warnIfInsecure(logger, 'client socket', socket.tcp, false);
    },
    stop: async () => void (await socket?.close()),
  };
  let httpSocket: ReturnType<typeof buildHttpSocket> | null = null;
  const agentApi: Service = {
    name: 'agent API',
    async start() {
      const httpConfig = (settings.client.http_socket ?? {}) as { enabled?: boolean; bind?: string; port?: number; tls?: unknown };
      if (httpConfig.enabled === false) return;
      const agentHttps = listenerHttps('agent API', 'client.http_socket.tls', httpConfig.tls, flags);
      httpSocket = buildHttpSocket({ https: agentHttps, settings: hub.current, intake, clock: systemClock, transport: () => transportInfo(transport) });
      const listen = listenerFrom('agent', flags, httpConfig, { bind: '127.0.0.1', port: 3031 });
      await startHttpListener(httpSocket, 'agent API', listen, agentHttps !== null, logger);
    },
    stop: async () => void (await httpSocket?.close()),
  };
  const session = new KeepaliveSession({
    settings: hub.current,
    keepalive: parts.keepalive,
    intake,
    intervalMs: keepaliveIntervalOf(settings) * 1000,
    isRunning: parts.isRunning,
    logger,
  });
  const summary = () => ({ standalone: client.standaloneChecks(), subscriptions: client.subscriptions() });
  return { client, services: [checks, socketService, agentApi, session], summary };
}
